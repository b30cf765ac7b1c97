#!/usr/bin/env bash
# The actions against the commands they name, on any stopped data directory (e.g. a ground-truth
# cluster's pgdata): the tool's full scan with --indexes --totals decides each relation's action;
# then a server is started on a copy and every table of the schema is rewritten with VACUUM FULL
# and every index the tool would rebuild with REINDEX INDEX, measuring what each really gave
# back and the new copies' size, side by side with reclaimable_bytes and rewrite_needs_bytes.
#
# usage: bench/actions-vs-commands.sh DATA_DIR DATABASE [SCHEMA]   (as root; PostgreSQL 15 binaries)
# environment: MIN_WASTED=1MB MIN_PERCENT=10 (the thresholds), PG_BIN=/usr/lib/postgresql/15/bin
# output: stdout and bench/out/actions-vs-commands.txt
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA=$(cd "$1" && pwd)
DB=$2
SCHEMA=${3:-public}
MIN_WASTED=${MIN_WASTED:-1MB}
MIN_PERCENT=${MIN_PERCENT:-10}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pgbloat-actions.XXXXXX")
PORT=$((20000 + RANDOM % 20000))
OUT=$HERE/bench/out/actions-vs-commands.txt
mkdir -p "$HERE/bench/out"
as_pg() { runuser -u postgres -- "$@"; }
trap 'as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -m fast -w stop >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT

(cd "$HERE" && ./submit.sh analyze --data-dir "$DATA" --database "$DB" --full-scan --indexes --totals \
  --format csv --index-output "$WORK/indexes.csv" --totals-output "$WORK/totals.csv" \
  --min-wasted "$MIN_WASTED" --min-percent "$MIN_PERCENT" --quiet --master 'local[2]' > "$WORK/tables.csv")

cp -a "$DATA" "$WORK/data" # tablespaces: a ground-truth cluster's links are relative, inside its folder
chown -R postgres: "$WORK"
chmod 700 "$WORK/data"
cat >> "$WORK/data/postgresql.conf" <<EOF
port = $PORT
listen_addresses = ''
unix_socket_directories = '$WORK'
autovacuum = off
EOF
as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -l "$WORK/log" -w start > /dev/null
psql() { as_pg "$PG_BIN/psql" -X -q -A -t -h "$WORK" -p "$PORT" -d "$DB" -c "$1"; }
# main forks, as pg_total_relation_size groups them
total() { psql "SELECT coalesce(sum(pg_relation_size(r.oid)), 0) FROM pg_class c, LATERAL (SELECT c.oid
  UNION ALL SELECT i.indexrelid FROM pg_index i WHERE i.indrelid IN (c.oid, c.reltoastrelid)
  UNION ALL SELECT c.reltoastrelid WHERE c.reltoastrelid <> 0) r(oid) WHERE c.oid = '$1'::regclass"; }

python3 - "$WORK" "$SCHEMA" > "$WORK/plan.txt" <<'PY'
import csv, sys
work, schema = sys.argv[1], sys.argv[2]
for t in csv.DictReader(open(f"{work}/totals.csv")):
    if t["schema"] == schema and t["relkind"] == "r":
        print("table", f'{schema}."{t["relname"]}"', t["total_bytes"], t["reclaimable_bytes"], t["rewrite_needs_bytes"])
for i in csv.DictReader(open(f"{work}/indexes.csv")):
    if i["schema"] == schema and i["action"] == "reindex":
        print("index", f'{schema}."{i["relname"]}"', i["index_size"], i["reclaimable_bytes"], "")
PY
actions() { python3 - "$WORK" "$1" "$2" <<'PY'
import csv, sys
work, kind, name = sys.argv[1:]
schema, rel = name.split(".", 1)
rel = rel.strip('"')
f = "tables.csv" if kind == "table" else "indexes.csv"
for r in csv.DictReader(open(f"{work}/{f}")):
    if r["schema"] == schema and r["relname"] == rel and (kind == "index" or r["toast_of"] == ""):
        print(r["action"])
PY
}
{
  echo "actions-vs-commands: $DATA, database $DB, schema $SCHEMA; thresholds $MIN_WASTED and $MIN_PERCENT %"
  printf '%-6s %-36s %-8s %12s %12s %12s %9s %12s %12s\n' kind relation action before reclaimed tool error% \
    new_copies needs
  while read -r kind name before tool needs; do
    action=$(actions "$kind" "$name")
    if [[ $kind == table ]]; then
      psql "VACUUM FULL $name"
      after=$(total "$name")
    else
      psql "REINDEX INDEX $name"
      after=$(psql "SELECT pg_relation_size('$name'::regclass)")
    fi
    printf '%-6s %-36s %-8s %12d %12d %12d %8.2f%% %12d %12s\n' "$kind" "$name" "$action" "$before" \
      $((before - after)) "$tool" "$(echo "100 * ($tool - ($before - $after)) / $before" | bc -l)" "$after" "$needs"
  done < "$WORK/plan.txt"
} | tee "$OUT"
