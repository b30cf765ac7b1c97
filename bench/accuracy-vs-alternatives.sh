#!/usr/bin/env bash
# Accuracy of this tool's block sample against the two usual alternatives, on a ground-truth
# cluster made by groundtruth/make-cluster.sh (its OUTDIR holds pgdata/, truth.csv,
# truth_approx.csv). For every relation of database `gt` in truth.csv (TOAST tables and
# relations under 10 blocks left out) it prints the absolute error, in percentage points,
# against pgstattuple()'s exact figures, and the blocks each method read:
#
#   (a) this tool, sampled: --sample-blocks SAMPLE_BLOCKS (default 300), and also at the
#       tool's default 3000 (unless SAMPLE_BLOCKS is 3000, or ALSO_DEFAULT=0); blocks read =
#       the report's sampled_blocks. Seed: $SEED (default 1).
#   (b) pgstattuple_approx(): its figures as recorded in truth_approx.csv
#       (dead_tuple_percent, approx_free_percent); blocks read = scanned_percent x blocks.
#   (c) the statistics-based "table bloat" query of ioguix (see bloat_sql below), run on a
#       throw-away COPY of the cluster after ANALYZE. It estimates wasted space against an
#       ideal packing and does not tell dead from free, so its bloat_ratio is compared with
#       the truth's dead_tuple_percent + free_percent; blocks read = ANALYZE's block sample,
#       min(blocks, 300 x default_statistics_target).
#
# The ground-truth OUTDIR is only read: the server runs on a copy (tablespaces included) in a
# private temp dir, as user postgres when run as root, on a unix socket only, and is stopped
# and removed on exit. The table also goes to bench/out/accuracy.txt.
#
# usage: bench/accuracy-vs-alternatives.sh OUTDIR [SAMPLE_BLOCKS]
#        env: SEED (default 1), ALSO_DEFAULT (1: also run at 3000 blocks), PG_BIN
set -euo pipefail

usage() { echo "usage: $0 OUTDIR [SAMPLE_BLOCKS]   (OUTDIR made by groundtruth/make-cluster.sh)" >&2; exit 2; }
[[ $# -ge 1 && $# -le 2 ]] || usage
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GT=$(cd "$1" 2>/dev/null && pwd) || { echo "bench: no such directory: $1" >&2; exit 2; }
SAMPLE=${2:-300}
SEED=${SEED:-1}
ALSO_DEFAULT=${ALSO_DEFAULT:-1}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
DB=gt
[[ $SAMPLE =~ ^[1-9][0-9]*$ ]] || { echo "bench: SAMPLE_BLOCKS must be a positive integer: $SAMPLE" >&2; exit 2; }
for f in truth.csv truth_approx.csv pgdata/PG_VERSION; do
  [[ -r $GT/$f ]] || { echo "bench: $GT/$f missing: is $GT a make-cluster.sh OUTDIR?" >&2; exit 2; }
done
[[ $(cat "$GT/pgdata/PG_VERSION") == 15 ]] || { echo "bench: $GT/pgdata is not PostgreSQL 15" >&2; exit 2; }
[[ -x $PG_BIN/pg_ctl ]] || { echo "bench: no PostgreSQL 15 server in $PG_BIN (set PG_BIN)" >&2; exit 2; }
if [[ $(id -u) -eq 0 ]]; then
  id postgres >/dev/null 2>&1 || { echo "bench: running as root needs the user postgres" >&2; exit 2; }
fi

OUT=$HERE/bench/out
mkdir -p "$OUT"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pgbloat-acc.XXXXXX")
PORT=$((20000 + RANDOM % 20000))
as_pg() { if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
psql() { as_pg "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$WORK/sock" -p "$PORT" -U postgres -d "$DB" "$@"; }
cleanup() {
  if [[ -f $WORK/pgdata/postmaster.pid ]]; then
    as_pg "$PG_BIN/pg_ctl" -D "$WORK/pgdata" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- (a) this tool, sampled -------------------------------------------------------------------
SIZES=("$SAMPLE")
[[ $ALSO_DEFAULT == 1 && $SAMPLE != 3000 ]] && SIZES+=(3000)
for n in "${SIZES[@]}"; do
  echo "bench: this tool, --sample-blocks $n --seed $SEED ..." >&2
  if ! "$HERE/submit.sh" analyze --data-dir "$GT/pgdata" --database "$DB" --sample-blocks "$n" \
      --seed "$SEED" --format csv --output "$WORK/tool-$n.csv" --metrics-out "$WORK/tool-$n.json" \
      >"$WORK/tool-$n.log" 2>&1; then
    echo "bench: the tool failed (--sample-blocks $n):" >&2; tail -n 20 "$WORK/tool-$n.log" >&2; exit 1
  fi
done

# ---- (c) the bloat SQL on a copy of the cluster after ANALYZE ---------------------------------
echo "bench: copying the cluster and running ANALYZE + the bloat query on the copy ..." >&2
cp -a "$GT/pgdata" "$WORK/pgdata"
rm -f "$WORK/pgdata/postmaster.pid"
mkdir -p "$WORK/tblspc" "$WORK/sock"
for link in "$GT"/pgdata/pg_tblspc/*; do          # tablespaces: copy each target, relink the copy
  [[ -L $link ]] || continue
  oid=$(basename "$link")
  target=$(readlink -f "$link") || { echo "bench: tablespace $oid: dangling link $link" >&2; exit 1; }
  cp -a "$target" "$WORK/tblspc/$oid"
  rm -f "$WORK/pgdata/pg_tblspc/$oid"
  ln -s "$WORK/tblspc/$oid" "$WORK/pgdata/pg_tblspc/$oid"
done
if [[ $(id -u) -eq 0 ]]; then chown -R postgres: "$WORK"; fi
chmod 700 "$WORK" "$WORK/pgdata" "$WORK/sock"
as_pg "$PG_BIN/pg_ctl" -D "$WORK/pgdata" -l "$WORK/postgres.log" -w -t 60 \
  -o "-c listen_addresses='' -c unix_socket_directories='$WORK/sock' -p $PORT -c autovacuum=off" \
  start >/dev/null || { echo "bench: the server on the copy did not start:" >&2; tail -n 20 "$WORK/postgres.log" >&2; exit 1; }

STATS_TARGET=$(psql -At -c "SHOW default_statistics_target")
t0=$(date +%s.%N)
psql -c "ANALYZE"
t1=$(date +%s.%N)
ANALYZE_S=$(python3 -c "print(f'{$t1 - $t0:.1f}')")

# Table bloat estimation by Jehan-Guillaume (ioguix) de Rorthais, pgsql-bloat-estimation,
# table/table_bloat.sql (https://github.com/ioguix/pgsql-bloat-estimation, BSD 2-clause,
# Copyright (c) 2015-2019). Same logic, restated for PostgreSQL 12+: pg_class.relhasoids is
# gone (no table has OIDs any more), so its 4-byte term is 0; limited to user schemas; the
# extra columns (heappages, toastpages, reltuples, tpl_size) are only for the report.
# Ideal pages = reltuples / ((block_size - page header) * fillfactor / tuple size) + TOAST
# tuples / 4, with the tuple size from pg_stats (avg_width, null_frac) and alignment;
# bloat_ratio = 100 * (pages - ideal pages) / pages, floored at 0.
bloat_sql=$(cat <<'SQL'
SELECT schemaname, tblname, heappages, toastpages, reltuples, tpl_size, fillfactor,
  bs*tblpages AS real_size, (tblpages-est_tblpages_ff)*bs AS bloat_size,
  CASE WHEN tblpages - est_tblpages > 0
    THEN 100 * (tblpages - est_tblpages)/tblpages::float ELSE 0 END AS extra_ratio,
  CASE WHEN tblpages - est_tblpages_ff > 0
    THEN 100 * (tblpages - est_tblpages_ff)/tblpages::float ELSE 0 END AS bloat_ratio,
  is_na
FROM (
  SELECT ceil( reltuples / ( (bs-page_hdr)/tpl_size ) ) + ceil( toasttuples / 4 ) AS est_tblpages,
    ceil( reltuples / ( (bs-page_hdr)*fillfactor/(tpl_size*100) ) ) + ceil( toasttuples / 4 ) AS est_tblpages_ff,
    tblpages, fillfactor, bs, tblid, schemaname, tblname, heappages, toastpages, reltuples, tpl_size, is_na
  FROM (
    SELECT
      ( 4 + tpl_hdr_size + tpl_data_size + (2*ma)
        - CASE WHEN tpl_hdr_size%ma = 0 THEN ma ELSE tpl_hdr_size%ma END
        - CASE WHEN ceil(tpl_data_size)::int%ma = 0 THEN ma ELSE ceil(tpl_data_size)::int%ma END
      ) AS tpl_size, bs - page_hdr AS size_per_block, (heappages + toastpages) AS tblpages, heappages,
      toastpages, reltuples, toasttuples, bs, page_hdr, tblid, schemaname, tblname, fillfactor, is_na
    FROM (
      SELECT
        tbl.oid AS tblid, ns.nspname AS schemaname, tbl.relname AS tblname, tbl.reltuples,
        tbl.relpages AS heappages, coalesce(toast.relpages, 0) AS toastpages,
        coalesce(toast.reltuples, 0) AS toasttuples,
        coalesce(substring(array_to_string(tbl.reloptions, ' ')
          FROM '%fillfactor=#"__#"%' FOR '#')::smallint, 100) AS fillfactor,
        current_setting('block_size')::numeric AS bs,
        CASE WHEN version()~'mingw32' OR version()~'64-bit|x86_64|ppc64|ia64|amd64' THEN 8 ELSE 4 END AS ma,
        24 AS page_hdr,
        23 + CASE WHEN MAX(coalesce(null_frac,0)) > 0 THEN ( 7 + count(*) ) / 8 ELSE 0::int END
          + 0 /* relhasoids: always false since PostgreSQL 12 */ AS tpl_hdr_size,
        sum( (1-coalesce(s.null_frac, 0)) * coalesce(s.avg_width, 1024) ) AS tpl_data_size,
        bool_or(att.atttypid = 'pg_catalog.name'::regtype)
          OR count(att.attname) <> count(s.attname) AS is_na
      FROM pg_attribute AS att
        JOIN pg_class AS tbl ON att.attrelid = tbl.oid
        JOIN pg_namespace AS ns ON ns.oid = tbl.relnamespace
        LEFT JOIN pg_stats AS s ON s.schemaname=ns.nspname
          AND s.tablename = tbl.relname AND s.inherited=false AND s.attname=att.attname
        LEFT JOIN pg_class AS toast ON tbl.reltoastrelid = toast.oid
      WHERE att.attnum > 0 AND NOT att.attisdropped
        AND tbl.relkind = 'r'
        AND ns.nspname NOT IN ('pg_catalog', 'information_schema', 'groundtruth')
        AND ns.nspname !~ '^pg_toast'
      GROUP BY 1,2,3,4,5,6,7,8,9,10
    ) AS s
  ) AS s2
) AS s3
ORDER BY 1, 2
SQL
)
psql --csv -c "$bloat_sql" > "$WORK/bloat.csv"
as_pg "$PG_BIN/pg_ctl" -D "$WORK/pgdata" -m fast -w stop >/dev/null

# ---- the table ---------------------------------------------------------------------------------
python3 - "$GT" "$DB" "$WORK" "$STATS_TARGET" "$ANALYZE_S" "$SEED" "${SIZES[@]}" <<'PY' | tee "$OUT/accuracy.txt"
import csv, json, sys

gt, db, work, stats_target, analyze_s, seed, *sizes = sys.argv[1:]
rows_sample = 300 * int(stats_target)

def load(path, key=lambda r: (r["schema"], r["relname"])):
    with open(path, newline="") as f:
        return {key(r): r for r in csv.DictReader(f) if r.get("database", db) == db}

truth = load(f"{gt}/truth.csv")
approx = load(f"{gt}/truth_approx.csv")
tool = {n: load(f"{work}/tool-{n}.csv") for n in sizes}
tool_metrics = {n: json.load(open(f"{work}/tool-{n}.json")) for n in sizes}
bloat = load(f"{work}/bloat.csv", key=lambda r: (r["schemaname"], r["tblname"]))

rels = []
for key, t in truth.items():
    blocks = int(t["table_len"]) // 8192
    if t["relkind"] == "t" or key[0].startswith("pg_toast") or blocks < 10:
        continue
    rels.append((key, t, blocks))
rels.sort(key=lambda x: (-x[2], x[0]))

methods = [f"tool @{n}" for n in sizes] + ["pgstattuple_approx", "bloat SQL (ioguix)"]
errs = {m: [] for m in methods}     # (relation, error) pairs, dead and free pooled for a/b
reads = {m: 0 for m in methods}
lines = []

def f2(x):
    return "n/a" if x is None else f"{x:.2f}"

hdr1 = f"{'':<16} {'':>6} |"
hdr2 = f"{'relation':<16} {'blocks':>6} |"
for n in sizes:
    hdr1 += f" {'this tool, ' + n + ' blocks':^21} |"
    hdr2 += f" {'dead':>6} {'free':>6} {'read':>6}  |"
hdr1 += f" {'pgstattuple_approx':^21} | {'bloat SQL after ANALYZE':^29}"
hdr2 += f" {'dead':>6} {'free':>6} {'read':>6}  | {'truth':>6} {'est':>6} {'err':>6} {'read':>7}"
lines += [hdr1, hdr2, "-" * len(hdr2)]

notes = []
for key, t, blocks in rels:
    name = key[1] if key[0] == "public" else ".".join(key)
    td, tf = float(t["dead_tuple_percent"]), float(t["free_percent"])
    line = f"{name:<16} {blocks:>6} |"
    for n, m in zip(sizes, methods):
        r = tool[n].get(key)
        if r is None:
            line += f" {'missing':>21} |"; continue
        ed, ef = abs(float(r["dead_tuple_percent"]) - td), abs(float(r["free_percent"]) - tf)
        read = int(r["sampled_blocks"])
        errs[m] += [(name, "dead", ed), (name, "free", ef)]; reads[m] += read
        line += f" {ed:>6.2f} {ef:>6.2f} {read:>6}  |"
    m = "pgstattuple_approx"
    a = approx.get(key)
    if a is None:
        line += f" {'n/a (not in approx)':>21} |"
    else:
        ed = abs(float(a["dead_tuple_percent"]) - td)
        ef = abs(float(a["approx_free_percent"]) - tf)
        read = round(float(a["scanned_percent"]) * blocks / 100)
        errs[m] += [(name, "dead", ed), (name, "free", ef)]; reads[m] += read
        line += f" {ed:>6.2f} {ef:>6.2f} {'~' + str(read):>6}  |"
    m = "bloat SQL (ioguix)"
    b = bloat.get(key)
    tsum = td + tf
    if b is None:
        line += f" {tsum:>6.2f} {'n/a':>6} {'n/a':>6} {'n/a':>7}"
    else:
        est = float(b["bloat_ratio"])
        e = abs(est - tsum)
        read = min(int(b["heappages"]), rows_sample)
        errs[m].append((name, "dead+free", e)); reads[m] += read
        flag = "*" if b["is_na"] == "t" else " "
        line += f" {tsum:>6.2f} {est:>6.2f} {e:>6.2f} {read:>7}{flag}"
        if int(b["fillfactor"]) != 100:
            notes.append(f"{name}: fillfactor {b['fillfactor']}; the query counts the reserved "
                         f"{100 - int(b['fillfactor'])} % as no bloat (without fillfactor, "
                         f"extra_ratio = {float(b['extra_ratio']):.2f}, "
                         f"error {abs(float(b['extra_ratio']) - tsum):.2f})")
        if e > 5 and int(b["fillfactor"]) == 100 and int(t["tuple_count"]) > 0:
            notes.append(f"{name}: the query's tuple size is {float(b['tpl_size']):.0f} bytes "
                         f"(header, data from avg_width and null_frac, line pointer); pgstattuple's "
                         f"mean live tuple is {int(t['tuple_len']) / int(t['tuple_count']):.0f} bytes "
                         f"(lp_len) + 4 (line pointer), before padding to 8")
        if b["is_na"] == "t":
            notes.append(f"{name}: is_na (a column without statistics, or of type name)")
    lines.append(line)

lines.append("")
total_blocks = sum(b for _, _, b in rels)
for m in methods:
    e = errs[m]
    if not e:
        lines.append(f"{m:<20} no figures"); continue
    mean = sum(x[2] for x in e) / len(e)
    worst = max(e, key=lambda x: x[2])
    what = "dead and free" if m != "bloat SQL (ioguix)" else "dead+free"
    lines.append(f"{m:<20} |error| in points over {len(e):>2} figures ({what}): mean {mean:5.2f}, "
                 f"max {worst[2]:5.2f} ({worst[0]} {worst[1]}); blocks read {reads[m]} "
                 f"of {total_blocks} ({100 * reads[m] / total_blocks:.1f} %)")
lines.append("")
lines.append(f"cluster {gt}, database {db}: {len(rels)} relations (TOAST tables and relations "
             f"under 10 blocks left out); errors are |estimate - pgstattuple| in percentage points "
             f"of table_len, truth from truth.csv.")
lines.append(f"this tool: --sample-blocks N --seed {seed}; 'read' = sampled_blocks; "
             + "blocks read for all relations of the database, catalogs included: "
             + ", ".join(f"{tool_metrics[n]['blocks_read']} at {n}" for n in sizes) + ".")
lines.append("pgstattuple_approx: 'read' ~ scanned_percent x blocks (all-visible pages are skipped "
             "and their free space taken from the FSM).")
lines.append(f"bloat SQL: ioguix table_bloat.sql after ANALYZE (default_statistics_target "
             f"{stats_target}: {rows_sample} rows, so 'read' = min(blocks, {rows_sample}) blocks; "
             f"ANALYZE of the whole database took {analyze_s} s); 'truth' = dead_tuple_percent "
             f"+ free_percent, 'est' = bloat_ratio. * = is_na.")
lines += notes
print("\n".join(lines))
PY
