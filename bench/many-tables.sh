#!/usr/bin/env bash
# A database of many small tables (multi-tenant schemas), analyzed in one job: catalog read,
# planning, scan and whole job, and the process's peak memory, at growing table counts.
#
# Makes a cluster with the local PostgreSQL 15 and one database "tenants" whose tables
# tenant_<k>.t_<i> each hold a few rows (and so a TOAST table and its index: three relations
# a table), adding tables in steps up to the largest count; after each step the cluster is
# stopped and this tool runs a full scan on it at --master local[2] under a file-descriptor
# limit of 1024, with --metrics-out. Prints one line per step, writes bench/out/many-tables.txt.
#
# usage: bench/many-tables.sh [COUNTS] [WORKDIR]   (COUNTS default "10000 30000 100000")
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
COUNTS=${1:-10000 30000 100000}
WORK=${2:-$(mktemp -d "${TMPDIR:-/tmp}/pgbloat-many.XXXXXX")}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PORT=$((20000 + RANDOM % 20000))
OUT=$HERE/bench/out
PER_SCHEMA=1000
mkdir -p "$OUT" "$WORK"
as_pg() { if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
psql() { as_pg "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$WORK" -p "$PORT" -U postgres "$@"; }
start() { as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -l "$WORK/log" -w start >/dev/null; }
stop() { as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -m fast -w stop >/dev/null; }
trap 'stop 2>/dev/null || true' EXIT
[[ $(id -u) -eq 0 ]] && chown postgres: "$WORK"

as_pg "$PG_BIN/initdb" -D "$WORK/data" -U postgres --auth=trust --data-checksums --no-sync >/dev/null
cat >> "$WORK/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$WORK'
port = $PORT
autovacuum = off
fsync = off
full_page_writes = off
wal_level = minimal
max_wal_senders = 0
max_wal_size = 4GB
max_locks_per_transaction = 4096
CONF
start
psql -d postgres -c "CREATE DATABASE tenants"
(cd "$HERE" && ./submit.sh --help >/dev/null 2>&1 || true)   # builds the tool once, outside the timings

made=0
echo "tables relations catalog_s plan_s scan_s job_s process_s peak_rss_mb blocks" | tee "$OUT/many-tables.txt"
for count in $COUNTS; do
  t0=$(date +%s.%N)
  while (( made < count )); do
    batch=$(( count - made < PER_SCHEMA ? count - made : PER_SCHEMA ))
    schema=$(printf 'tenant_%05d' $(( made / PER_SCHEMA )))
    # one transaction a schema: the tables of a tenant, a few rows each, a third of them deleted
    psql -d tenants <<SQL
CREATE SCHEMA IF NOT EXISTS $schema;
DO \$\$ BEGIN
  FOR i IN $made..$(( made + batch - 1 )) LOOP
    EXECUTE format('CREATE TABLE $schema.t_%s (id int, note text)', i);
    EXECUTE format('INSERT INTO $schema.t_%s SELECT g, md5(g::text) FROM generate_series(1, 30) g', i);
    EXECUTE format('DELETE FROM $schema.t_%s WHERE id %% 3 = 0', i);
  END LOOP;
END \$\$;
SQL
    made=$(( made + batch ))
  done
  echo "bench: $made tables made in $(python3 -c "print(round($(date +%s.%N) - $t0))") s" >&2
  psql -d postgres -c CHECKPOINT
  stop
  metrics=$WORK/metrics-$count.json
  start_s=$(date +%s.%N)
  ( ulimit -n 1024; /usr/bin/time -f "%M" -o "$WORK/rss-$count" "$HERE/submit.sh" analyze --data-dir "$WORK/data" \
      --database tenants --full-scan --master 'local[2]' --quiet --format csv --output "$WORK/report-$count.csv" \
      --metrics-out "$metrics" ) 2> "$WORK/err-$count.txt" || { echo "bench: the run at $count tables failed:" >&2; tail -5 "$WORK/err-$count.txt" >&2; exit 1; }
  end_s=$(date +%s.%N)
  relations=$(( $(wc -l < "$WORK/report-$count.csv") - 1 ))
  python3 - "$metrics" "$count" "$relations" "$(python3 -c "print($end_s - $start_s)")" "$(cat "$WORK/rss-$count")" <<'PY' | tee -a "$OUT/many-tables.txt"
import json, sys
m = json.load(open(sys.argv[1]))
print(sys.argv[2], sys.argv[3], "%.1f" % m["catalog_seconds"], "%.1f" % m["plan_seconds"], "%.1f" % m["scan_seconds"],
      "%.1f" % m["job_seconds"], "%.1f" % float(sys.argv[4]), int(sys.argv[5]) // 1024, m["blocks_read"])
PY
  start
done
