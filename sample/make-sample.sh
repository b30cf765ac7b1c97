#!/usr/bin/env bash
# Makes sample/pgdata: a small PostgreSQL 15 data directory with tables in known states,
# and sample/truth/*.csv: what the server itself said about it (pgstattuple, pageinspect).
#
# The data directory is copied BEFORE any truth scan, so many tuples carry no hint bits
# and a reader must consult pg_xact and pg_multixact, as with a real base backup. pg_wal
# and the template databases are left out to keep it small; nothing here needs them.
#
# usage: sample/make-sample.sh            (needs PostgreSQL 15 server binaries and pageinspect)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pgbloat-sample.XXXXXX")
trap 'as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -m immediate -w stop >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
as_pg() { if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[[ $(id -u) -eq 0 ]] && chown postgres: "$WORK"
chmod 755 "$WORK"
PORT=$((20000 + RANDOM % 20000))

as_pg "$PG_BIN/initdb" -D "$WORK/data" -U postgres --auth=trust -E UTF8 --locale=C --data-checksums --no-sync >/dev/null
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
stop() { psql postgres -c CHECKPOINT >/dev/null; as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -m fast -w stop >/dev/null; }
psql() { local db=$1; shift; as_pg "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$WORK" -p "$PORT" -U postgres -d "$db" "$@"; }
start

# Templates are not needed by anyone reading this directory; dropping them halves its size.
psql postgres -c "ALTER DATABASE template1 IS_TEMPLATE false" -c "DROP DATABASE template1" \
  -c "ALTER DATABASE template0 IS_TEMPLATE false" -c "ALTER DATABASE template0 ALLOW_CONNECTIONS true" \
  -c "DROP DATABASE template0" -c "CREATE DATABASE shop TEMPLATE postgres"
for db in postgres shop; do psql "$db" -c "CREATE EXTENSION pgstattuple" -c "CREATE EXTENSION pageinspect"; done

psql shop <<'SQL'
SELECT setseed(0.42);
CREATE SCHEMA archive;
CREATE TABLE customers (id int PRIMARY KEY, name text NOT NULL, email text);
INSERT INTO customers SELECT g, 'customer ' || g, CASE WHEN g % 7 = 0 THEN NULL ELSE 'c' || g || '@example.com' END
  FROM generate_series(1, 4000) g;
DELETE FROM customers WHERE random() < 0.35;
VACUUM customers;                                    -- freed slots become LP_UNUSED
CREATE TABLE orders (id int PRIMARY KEY, customer int NOT NULL, status text NOT NULL, total numeric(10,2));
INSERT INTO orders SELECT g, 1 + (g * 7919) % 4000, 'new', (g % 500) + 0.99 FROM generate_series(1, 12000) g;
CREATE TABLE events (id int PRIMARY KEY, hits int NOT NULL DEFAULT 0, note text NOT NULL) WITH (fillfactor = 70);
INSERT INTO events (id, note) SELECT g, md5(g::text) FROM generate_series(1, 6000) g;
UPDATE events SET hits = hits + 1 WHERE random() < 0.3;  -- HOT; pruned by later scans
UPDATE events SET hits = hits + 1 WHERE random() < 0.3;
CREATE TABLE documents (id int PRIMARY KEY, title text NOT NULL, body text NOT NULL);
INSERT INTO documents SELECT g, 'doc ' || g,
  (SELECT string_agg(md5(g::text || ':' || i), '' ORDER BY i) FROM generate_series(1, 40 + (g * 37) % 100) i)
  FROM generate_series(1, 250) g;                    -- 1.3 to 4.5 kB of incompressible text: TOASTed
CREATE TABLE audit_log (id bigint, at timestamptz, what text);
INSERT INTO audit_log SELECT g, '2026-01-01'::timestamptz + g * interval '1 minute', 'event ' || g
  FROM generate_series(1, 8000) g;
VACUUM (FREEZE) audit_log;
CREATE TABLE archive.orders_2025 AS SELECT * FROM orders WHERE id % 10 = 0;
CREATE TABLE empty_table (id int);
CREATE MATERIALIZED VIEW order_totals AS SELECT customer, sum(total) AS total FROM orders GROUP BY customer;
SQL
psql postgres <<'SQL'
CREATE TABLE notes (id int, body text);
INSERT INTO notes SELECT g, repeat('note ', g % 40) FROM generate_series(1, 3000) g;
SQL

# Dead tuples are made while the xmin horizon is pinned by a prepared transaction, so no
# later read prunes them away. The pins stay prepared through the copy and the truth scans
# (they wrote nothing): unpinned, the truth session's own catalog lookups would prune
# pg_proc and the truth would describe other pages than the copy's. Vacuuming everything
# first leaves nothing older than the pins to prune.
for db in postgres shop; do
  psql "$db" -c "VACUUM" -c "BEGIN" -c "SELECT pg_current_xact_id()" -c "PREPARE TRANSACTION 'pin_$db'" >/dev/null
done
psql shop <<'SQL'
SELECT setseed(0.43);
DELETE FROM orders WHERE random() < 0.2;
UPDATE orders SET status = 'paid' WHERE random() < 0.15;         -- new versions appended
UPDATE events SET hits = hits + 1 WHERE random() < 0.3;          -- HOT, left dead
DELETE FROM documents WHERE id % 5 = 0;                          -- their TOAST chunks die too
UPDATE documents SET body = reverse(body) WHERE id % 7 = 0;      -- new chunks, old ones dead
DELETE FROM audit_log WHERE id BETWEEN 2000 AND 2300;            -- a few pages lose all-visible
BEGIN; INSERT INTO orders SELECT g, 1, 'aborted', 0 FROM generate_series(100001, 100500) g; ROLLBACK;
BEGIN;
INSERT INTO orders VALUES (200001, 1, 'kept', 1);
SAVEPOINT s1; INSERT INTO orders SELECT g, 1, 'rolled back', 0 FROM generate_series(200002, 200100) g; ROLLBACK TO s1;
SAVEPOINT s2; INSERT INTO orders VALUES (200101, 1, 'subcommitted', 1); RELEASE s2;
COMMIT;
SQL
# A multixact with an updater: a key-share lock held by a prepared transaction, then an update.
psql shop -c "BEGIN" -c "SELECT id FROM customers WHERE id <= 60 FOR KEY SHARE" -c "PREPARE TRANSACTION 'locker'" >/dev/null
psql shop -c "UPDATE customers SET name = name || ' (vip)' WHERE id <= 60"
psql shop -c "COMMIT PREPARED 'locker'"
psql postgres -c "DELETE FROM notes WHERE id % 3 = 0"

stop
rm -rf "$HERE/pgdata"
cp -a "$WORK/data" "$HERE/pgdata"
rm -rf "$HERE/pgdata/pg_wal" "$HERE/pgdata/log" "$HERE"/pgdata/postmaster.* "$HERE"/pgdata/*.conf "$HERE/pgdata/pg_stat"/*
mkdir -p "$HERE/pgdata/pg_wal"
[[ $(id -u) -eq 0 ]] && chown -R "$(stat -c %u:%g "$HERE")" "$HERE/pgdata"
chmod -R u+rwX,go+rX "$HERE/pgdata"

start
mkdir -p "$HERE/truth"
# The truth in the report's own CSV format: one row per relation with heap storage, every
# schema; shared catalogs once, with an empty database.
truth_query() {   # db, extra condition, header?
  psql "$1" -c "COPY (SELECT CASE WHEN c.relisshared THEN '' ELSE current_database() END AS database,
      n.nspname AS schema, c.relname, c.relkind, pg_relation_filepath(c.oid) AS relpath,
      coalesce(o_n.nspname || '.' || o.relname, '') AS toast_of,
      t.table_len / 8192 AS blocks, t.table_len / 8192 AS scanned_blocks, t.table_len,
      t.tuple_count, t.tuple_len, round(t.tuple_percent::numeric, 2) AS tuple_percent,
      t.dead_tuple_count, t.dead_tuple_len, round(t.dead_tuple_percent::numeric, 2) AS dead_tuple_percent,
      t.free_space, round(t.free_percent::numeric, 2) AS free_percent, 0 AS bad_pages
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_class o ON o.reltoastrelid = c.oid LEFT JOIN pg_namespace o_n ON o_n.oid = o.relnamespace,
      LATERAL pgstattuple(c.oid) t
    WHERE c.relkind IN ('r','t','m') AND c.relpersistence <> 't' $2
    ORDER BY 1, 2, 3) TO STDOUT WITH (FORMAT csv $3)"
}
{ truth_query postgres "" ", HEADER"; truth_query shop "AND NOT c.relisshared" ""; } > "$HERE/truth/pgstattuple.csv"
# Page by page, for the decoding tests: header fields and line pointers by kind.
psql shop -c "COPY (SELECT c.relname, b AS block, h.lower, h.upper, h.special, h.flags, h.checksum,
    (SELECT count(*) FROM heap_page_items(get_raw_page(c.relname, b)) WHERE lp_flags = 0) AS lp_unused,
    (SELECT count(*) FROM heap_page_items(get_raw_page(c.relname, b)) WHERE lp_flags = 1) AS lp_normal,
    (SELECT count(*) FROM heap_page_items(get_raw_page(c.relname, b)) WHERE lp_flags = 2) AS lp_redirect,
    (SELECT count(*) FROM heap_page_items(get_raw_page(c.relname, b)) WHERE lp_flags = 3) AS lp_dead
  FROM pg_class c, generate_series(0, pg_relation_size(c.oid) / 8192 - 1) AS b,
       LATERAL page_header(get_raw_page(c.relname, b)) h
  WHERE c.relname IN ('orders', 'events', 'customers') ORDER BY 1, 2) TO STDOUT WITH (FORMAT csv, HEADER)" \
  > "$HERE/truth/pages.csv"
stop
"$PG_BIN/pg_controldata" -D "$HERE/pgdata" > "$HERE/truth/pg_controldata.txt"
echo "sample/pgdata: $(du -sh "$HERE/pgdata" | cut -f1); truth in sample/truth"
