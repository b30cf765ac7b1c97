#!/usr/bin/env bash
# Why GiST and SP-GiST have no rebuild figure: the same values, built in two heap orders.
#
# Makes a cluster with the local PostgreSQL 15, loads the same ROWS values (default 100000) of a
# few types twice, in random and in sorted heap order, builds a GiST or SP-GiST index on each
# with CREATE INDEX (a fresh build), stops the server and reads the indexes with this tool's
# full scan. Prints, per index, its pages and the ratio of its pages to the pages its tuples
# would fill at 100 %: pages / ((tuple_len + 4 tuple_count) / 8152). A rebuild model from page
# contents needs that ratio to be a property of the operator class; it moves with the heap's
# order, which an index's pages do not show (docs/indexes.md).
#
# usage: bench/gist-spgist-build-fill.sh [ROWS] [WORKDIR]    (WORKDIR default: a temp dir)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROWS=${1:-100000}
WORK=${2:-$(mktemp -d "${TMPDIR:-/tmp}/pgbloat-bench.XXXXXX")}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PORT=$((20000 + RANDOM % 20000))
as_pg() { if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
psql() { as_pg "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$WORK" -p "$PORT" -U postgres "$@"; }
trap 'as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -m fast -w stop >/dev/null 2>&1 || true' EXIT
[[ $(id -u) -eq 0 ]] && chown postgres: "$WORK"

as_pg "$PG_BIN/initdb" -D "$WORK/data" -U postgres --auth=trust --no-sync >/dev/null
cat >> "$WORK/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$WORK'
port = $PORT
autovacuum = off
fsync = off
CONF
as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -l "$WORK/log" -w start >/dev/null
psql -d postgres -o /dev/null <<SQL
SELECT setseed(0.5);
CREATE TABLE vals AS SELECT g AS id, random() * 1e4 AS x, random() * 1e4 AS y, md5(random()::text) AS t,
  (random() * 1e7)::int AS lo FROM generate_series(1, $ROWS) g;
CREATE TABLE heap_random AS SELECT * FROM vals ORDER BY id;
CREATE TABLE heap_sorted AS SELECT * FROM vals ORDER BY x, y;
CREATE TABLE heap_sorted_t AS SELECT * FROM vals ORDER BY t;
CREATE TABLE heap_sorted_lo AS SELECT * FROM vals ORDER BY lo;
CREATE INDEX gist_box_random ON heap_random USING gist (box(point(x, y), point(x + 50, y + 50)));
CREATE INDEX gist_box_sorted ON heap_sorted USING gist (box(point(x, y), point(x + 50, y + 50)));
CREATE INDEX gist_range_random ON heap_random USING gist (int4range(lo, lo + 500));
CREATE INDEX gist_range_sorted ON heap_sorted_lo USING gist (int4range(lo, lo + 500));
CREATE INDEX spgist_text_random ON heap_random USING spgist (t);
CREATE INDEX spgist_text_sorted ON heap_sorted_t USING spgist (t);
CREATE INDEX spgist_point_random ON heap_random USING spgist (point(x, y));
CREATE INDEX spgist_point_sorted ON heap_sorted USING spgist (point(x, y));
CHECKPOINT;
SQL
as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -m fast -w stop >/dev/null
"$HERE/submit.sh" analyze --data-dir "$WORK/data" --database postgres --full-scan --indexes --relkind i \
  --table 'public.*' --format csv --output /dev/null --index-output "$WORK/indexes.csv" --quiet
python3 - "$WORK/indexes.csv" <<'PY'
import csv, sys
rows = {r["relname"]: r for r in csv.DictReader(open(sys.argv[1]))}
print(f"{'index':22} {'pages':>7} {'pages / tuples at 100 %':>24}")
for name in sorted(rows):
    r = rows[name]
    if r["am"] not in ("gist", "spgist"):
        continue
    pages = int(r["index_size"]) // 8192
    full = (int(r["tuple_len"]) + 4 * int(r["tuple_count"])) / 8152
    print(f"{name:22} {pages:7d} {pages / full:24.2f}")
PY
