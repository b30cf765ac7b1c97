#!/usr/bin/env bash
# Full scan of this tool vs pgstattuple() on the same table, cold and warm cache, one run.
#
# Makes a cluster with the local PostgreSQL 15 holding one table of about SIZE_GB (default
# 1.2) with 20 % of its rows deleted (dead tuples kept), then times, side by side:
#   - this tool's --full-scan on the stopped cluster (whole process, and its scan stage alone)
#   - SELECT * FROM pgstattuple('big') on the running cluster
# each with the page cache dropped first (cold; needs root) and again right after (warm).
# Both read the same files: pgstattuple runs once before, so hint bits are already set.
#
# usage: bench/fullscan-vs-pgstattuple.sh [SIZE_GB] [WORKDIR]    (WORKDIR default: a temp dir)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SIZE_GB=${1:-1.2}
WORK=${2:-$(mktemp -d "${TMPDIR:-/tmp}/pgbloat-bench.XXXXXX")}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PORT=$((20000 + RANDOM % 20000))
ROWS=$(python3 -c "print(int($SIZE_GB * 1024**3 / 8192 * 58))")   # 58 rows of 140 bytes per block
OUT=$HERE/bench/out
mkdir -p "$OUT" "$WORK"
as_pg() { if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
psql() { as_pg "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$WORK" -p "$PORT" -U postgres "$@"; }
start() { as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -l "$WORK/log" -w start >/dev/null; }
stop() { as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -m fast -w stop >/dev/null; }
drop_caches() {
  sync
  if [[ -w /proc/sys/vm/drop_caches ]]; then echo 1 > /proc/sys/vm/drop_caches; else
    echo "bench: cannot drop the page cache (not root); 'cold' figures are warm" >&2; fi
}
now() { date +%s.%N; }
trap 'stop 2>/dev/null || true' EXIT
[[ $(id -u) -eq 0 ]] && chown postgres: "$WORK"

if [[ ! -d $WORK/data ]]; then
  echo "bench: making a $SIZE_GB GB table ($ROWS rows) in $WORK" >&2
  as_pg "$PG_BIN/initdb" -D "$WORK/data" -U postgres --auth=trust --data-checksums --no-sync >/dev/null
  cat >> "$WORK/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$WORK'
port = $PORT
autovacuum = off
shared_buffers = 128MB
fsync = off
wal_level = minimal
max_wal_senders = 0
max_wal_size = 4GB
max_prepared_transactions = 2
CONF
  start
  psql -d postgres -c "CREATE DATABASE bench"
  psql -d bench -c "CREATE EXTENSION pgstattuple" -c "BEGIN" \
    -c "CREATE TABLE big (id int NOT NULL, payload text NOT NULL)" \
    -c "INSERT INTO big SELECT g, md5(g::text) || md5((g * 7)::text) || md5((g * 13)::text) || substr(md5((g * 17)::text), 1, 4) FROM generate_series(1, $ROWS) g" \
    -c "COMMIT"
  psql -d bench -c "BEGIN" -c "SELECT pg_current_xact_id()" -c "PREPARE TRANSACTION 'pin'" >/dev/null
  psql -d bench -c "DELETE FROM big WHERE id % 5 = 0"
  psql -d bench -c "SELECT * FROM pgstattuple('big')" >/dev/null   # sets hint bits once, for both readers
  psql -d postgres -c "CHECKPOINT"
  stop
fi
sed -i "s/^port = .*/port = $PORT/; s|^unix_socket_directories = .*|unix_socket_directories = '$WORK'|" "$WORK/data/postgresql.conf"

tool() {   # label
  local t0 t1
  t0=$(now)
  "$HERE/submit.sh" analyze --data-dir "$WORK/data" --database bench --table public.big --full-scan \
    --format csv --output "$OUT/tool-$1.csv" --metrics-out "$OUT/tool-$1.json" 2>"$OUT/tool-$1.err"
  t1=$(now)
  python3 - "$OUT/tool-$1.json" "$t0" "$t1" "$1" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); wall = float(sys.argv[3]) - float(sys.argv[2])
mb = m["bytes_read"] / 1e6
print(f"tool {sys.argv[4]:5s} {mb:8.0f} MB  process {wall:6.2f} s {mb / wall:7.0f} MB/s   scan stage {m['scan_seconds']:6.2f} s {m['scan_mb_per_second']:7.0f} MB/s")
PY
}
pgstattuple() {   # label
  local t0 t1 ms
  ms=$(psql -d bench -At -c "\timing on" -c "SELECT * FROM pgstattuple('big')" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
  psql -d bench -At -c "SELECT table_len FROM pgstattuple('big')" > /dev/null
  python3 -c "
mb = $(psql -d bench -At -c "SELECT pg_relation_size('big')") / 1e6; s = $ms / 1000
print(f'pgstattuple {\"$1\":5s} {mb:8.0f} MB  {s:6.2f} s {mb / s:7.0f} MB/s')"
}

# Build, and let submit.sh record its class-data archive, outside the timings: measured runs
# are the ones a user sees from the second run on.
"$HERE/submit.sh" analyze --data-dir "$WORK/data" --database bench --table public.big --output /dev/null 2>/dev/null
echo "== full scan of a $(du -sh "$WORK/data/base" | cut -f1) cluster; $(nproc) cores; cache dropped before 'cold'"
drop_caches; tool cold | tee "$OUT/fullscan.txt"
tool warm | tee -a "$OUT/fullscan.txt"
start
stop; drop_caches; start
pgstattuple cold | tee -a "$OUT/fullscan.txt"
pgstattuple warm | tee -a "$OUT/fullscan.txt"
stop
python3 - "$OUT/fullscan.txt" <<'PY'
import re, sys
rows = {}
for line in open(sys.argv[1]):
    parts = line.split()
    rates = re.findall(r"([\d.]+) MB/s", line)
    rows[(parts[0], parts[1])] = [float(r) for r in rates]
for cache in ("cold", "warm"):
    tool, pg = rows[("tool", cache)], rows[("pgstattuple", cache)][0]
    print(f"ratio {cache}: tool/pgstattuple = {tool[0] / pg:.2f} (whole process), {tool[1] / pg:.2f} (scan stage)")
PY
echo "bench: data kept in $WORK (pass it again as WORKDIR to reuse; delete when done)"
