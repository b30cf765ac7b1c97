#!/usr/bin/env bash
# I/O benchmark, one run, side by side, the page cache dropped before every cold measurement:
#
#   1. prefetch gain: a sampled scan (PREFETCH_BLOCKS blocks, --master local[1],
#      --io-combine-limit 16) with --io-concurrency 1 vs 16, --buffered-io and --direct-io,
#      against fio's own gain on the same table files: random 8 kB O_DIRECT reads, 1 reader
#      vs 16 (the --direct-io pair is the like-for-like comparison: no readahead either side);
#   2. random-read rate: the 16-reader sampled scan's blocks/s against fio's 16 readers;
#   3. size series: for each table of SIZES GB, this tool sampled (SAMPLE_BLOCKS), this tool
#      --full-scan (stopped cluster), both with the default settings (O_DIRECT, B = 64), and
#      pgstattuple() (running cluster); a table of seconds
#      and the plot bench/plot-size-series.svg;
#   4. full scan vs dd and pgstattuple: the full scan's MB/s (scan stage) against dd's cold
#      read of the largest table's files and pgstattuple()'s cold query, next to each other in
#      each round of part 3 (median of the rounds' ratios);
#   5. steady state: one task's sampled scan without Spark or process start (ScanCost, as
#      bench/scan-cost.sh, rounds 3 on) against the CLI's K=16 scan stage of part 1;
#   6. notebook: one local[2] session runs a SAMPLE_BLOCKS sampled query of the largest table
#      NOTEBOOK_ROUNDS times (NotebookCost, as bench/notebook-cost.sh; each round new blocks),
#      the warm rounds' median against pgstattuple() cold on that table (part 3's median).
#
# Noise: the machine may be shared, so parts 1-2 run in PREFETCH_ROUNDS rounds (fio and the
# tool interleaved, the order reversed every other round, each tool run on its own sample
# seed) and report every round and the median; part 3 runs SERIES_ROUNDS rounds (order
# reversed every other round) and reports the best of them. Each measurement line shows the
# CPU the machine spent meanwhile ("busy") and how much of it was the measured program's own.
# "Cold" means the page cache of this (virtual) machine was dropped. A VM host may cache the
# disk image too, which cannot be dropped from inside; so that the first reader of a table
# does not pay for a host-cache miss that the next one is spared, each table is read once
# with O_DIRECT before its group of measurements (HOST_WARMUP=0 leaves that out).
#
# One cluster holds one table per size in database "bench", each made as uniform_dead in
# bench/fullscan-vs-pgstattuple.sh: inserted in one transaction, then 20 % deleted under a
# horizon pinned by a prepared transaction (dead tuples kept), hint bits set, CHECKPOINT.
# Tables are made once and kept in WORKDIR; a re-run with the same WORKDIR only measures
# (and makes the sizes it has not made yet).
#
# usage: bench/io-bench.sh [WORKDIR]                      (as root: cache drops, fio, runuser)
# environment: SIZES="0.5 1 2 4" (add 8 if the disk has room), SAMPLE_BLOCKS=3000,
#   PREFETCH_BLOCKS=20000, PREFETCH_GB (default: the largest size), PREFETCH_ROUNDS=3,
#   SERIES_ROUNDS=3, NOTEBOOK_ROUNDS=5, FIO_SECONDS=10, HOST_WARMUP=1, PG_BIN=/usr/lib/postgresql/15/bin,
#   TOOL_REV=HEAD (the commit measured: a clean copy built once in WORKDIR/tool-<commit>, so
#   edits in the work tree neither leak into the figures nor trigger a rebuild mid-run)
# output: stdout and bench/out/io-bench.txt; raw files in bench/out/io-bench/;
#   the plot bench/plot-size-series.svg
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${1:-$(mktemp -d "${TMPDIR:-/tmp}/pgbloat-io-bench.XXXXXX")}
WORK=$(mkdir -p "$WORK" && cd "$WORK" && pwd)
SIZES=${SIZES:-"0.5 1 2 4"}
SAMPLE_BLOCKS=${SAMPLE_BLOCKS:-3000}
PREFETCH_BLOCKS=${PREFETCH_BLOCKS:-20000}
PREFETCH_ROUNDS=${PREFETCH_ROUNDS:-3}
SERIES_ROUNDS=${SERIES_ROUNDS:-3}
NOTEBOOK_ROUNDS=${NOTEBOOK_ROUNDS:-5}
FIO_SECONDS=${FIO_SECONDS:-10}
HOST_WARMUP=${HOST_WARMUP:-1}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
TOOL_REV=${TOOL_REV:-HEAD}
PORT=$((20000 + RANDOM % 20000))
OUT=$HERE/bench/out/io-bench
TXT=$HERE/bench/out/io-bench.txt
SVG=$HERE/bench/plot-size-series.svg
RESULTS=$OUT/results.tsv

[[ $(id -u) -eq 0 ]] || { echo "io-bench: run as root (page cache drops, fio install, runuser)" >&2; exit 2; }
[[ $WORK != *:* ]] || { echo "io-bench: WORKDIR must not contain ':' (fio separates file names with it)" >&2; exit 2; }
mkdir -p "$OUT"
rm -f "$OUT"/*.json "$OUT"/*.err "$OUT"/*.csv "$OUT"/*.time
: > "$RESULTS"
chown postgres: "$WORK"

as_pg() { runuser -u postgres -- "$@"; }
psql() { as_pg "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$WORK" -p "$PORT" -U postgres "$@"; }
running() { as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" status >/dev/null 2>&1; }
start() { running || as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -l "$WORK/log" -w start >/dev/null; }
stop() { ! running || as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -m fast -w stop >/dev/null; }
drop_caches() { sync; echo 1 > /proc/sys/vm/drop_caches; }
now() { date +%s.%N; }
log() { echo "io-bench: $*" >&2; }
record() { printf '%s\t%s\n' "$1" "$2" >> "$RESULTS"; }   # key value
name_of() { echo "s${1/./p}"; }                              # 0.5 -> s0p5
cpu_jiffies() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }
trap 'stop 2>/dev/null || true' EXIT

for cmd in fio /usr/bin/time; do
  command -v "$cmd" >/dev/null && continue
  pkg=$([[ $cmd == fio ]] && echo fio || echo time)
  log "installing $pkg"
  apt-get install -y "$pkg" >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y "$pkg" >/dev/null; }
done

# ---------------------------------------------------------------------------------- sizes
# Sizes as given, sorted; a size not made yet is kept only if the disk has room for it (the
# table, its WAL while deleting, and 5 GB to spare).
SIZES=$(printf '%s\n' $SIZES | sort -g -u | tr '\n' ' ')
free_gb=$(df -P --block-size=1G "$WORK" | awk 'NR == 2 { print $4 }')
kept=""
for size in $SIZES; do
  if [[ -f $WORK/made/$(name_of "$size") ]]; then kept+="$size "; continue; fi
  if python3 -c "import sys; sys.exit(0 if $size * 1.6 + 5 <= $free_gb else 1)"; then
    kept+="$size "; free_gb=$(python3 -c "print(int($free_gb - $size * 1.6))")
  else
    log "leaving out the $size GB table: $free_gb GB free on $WORK is not enough"
  fi
done
SIZES=${kept% }
[[ -n $SIZES ]] || { log "no size left to measure"; exit 1; }
LARGEST=${SIZES##* }
PREFETCH_GB=${PREFETCH_GB:-$LARGEST}
[[ " $SIZES " == *" $PREFETCH_GB "* ]] || { log "PREFETCH_GB=$PREFETCH_GB is not one of SIZES ($SIZES)"; exit 2; }
python3 -c "import sys; sys.exit(0 if $PREFETCH_GB >= 2 else 1)" ||
  log "warning: the prefetch table ($PREFETCH_GB GB) is smaller than 2 GB"

# ---------------------------------------------------------------------------------- cluster
if [[ ! -d $WORK/data ]]; then
  log "making a cluster in $WORK"
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
  psql -d bench -c "CREATE EXTENSION pgstattuple"
  # The pin: a prepared transaction holds the removal horizon, so every later DELETE's tuples
  # stay on their pages as dead tuples (no pruning, no vacuum removes them).
  psql -d bench -c "BEGIN" -c "SELECT pg_current_xact_id()" -c "PREPARE TRANSACTION 'pin'" >/dev/null
  stop
fi
sed -i "s/^port = .*/port = $PORT/; s|^unix_socket_directories = .*|unix_socket_directories = '$WORK'|" \
  "$WORK/data/postgresql.conf"
mkdir -p "$WORK/made"
for size in $SIZES; do
  name=$(name_of "$size")
  [[ -f $WORK/made/$name ]] && continue
  rows=$(python3 -c "print(int($size * 1024**3 / 8192 * 58))")   # 58 rows of 140 bytes per block
  log "making table $name: $size GB, $rows rows, 20 % deleted"
  t0=$(now)
  start
  psql -d bench -c "SET client_min_messages = warning" -c "DROP TABLE IF EXISTS $name" -c "BEGIN" \
    -c "CREATE TABLE $name (id int NOT NULL, payload text NOT NULL)" \
    -c "INSERT INTO $name SELECT g, md5(g::text) || md5((g * 7)::text) || md5((g * 13)::text) || substr(md5((g * 17)::text), 1, 4) FROM generate_series(1, $rows) g" \
    -c "COMMIT"
  psql -d bench -c "DELETE FROM $name WHERE id % 5 = 0"
  psql -d bench -c "SELECT * FROM pgstattuple('$name')" >/dev/null   # sets hint bits once, for all readers
  psql -d postgres -c "CHECKPOINT"
  touch "$WORK/made/$name"
  log "  made in $(python3 -c "print(f'{$(now) - $t0:.0f}')") s"
done
start
declare -A FILES   # size -> the table's segment files, colon-separated (fio's syntax)
for size in $SIZES; do
  rel=$(psql -d bench -At -c "SELECT pg_relation_filepath('$(name_of "$size")')")
  FILES[$size]=$WORK/data/$rel
  for ((i = 1; ; i++)); do [[ -f $WORK/data/$rel.$i ]] || break; FILES[$size]+=":$WORK/data/$rel.$i"; done
  record "bytes.$size" "$(psql -d bench -At -c "SELECT pg_relation_size('$(name_of "$size")')")"
done
psql -d postgres -c "CHECKPOINT"
stop

# ---------------------------------------------------------------------------------- the tool
# A clean copy of TOOL_REV, built (and its class-data archive recorded by a first run)
# outside the timings.
COMMIT=$(git -C "$HERE" rev-parse --short "$TOOL_REV")
TOOLDIR=$WORK/tool-$COMMIT
if [[ ! -x $TOOLDIR/submit.sh ]]; then
  rm -rf "$TOOLDIR.tmp" && mkdir -p "$TOOLDIR.tmp"
  git -C "$HERE" archive "$COMMIT" | tar -x -C "$TOOLDIR.tmp"
  mv "$TOOLDIR.tmp" "$TOOLDIR"
fi
SUBMIT=$TOOLDIR/submit.sh
log "building and warming up the tool at $COMMIT in $TOOLDIR"
"$SUBMIT" analyze --data-dir "$WORK/data" --database bench --table "public.$(name_of "${SIZES%% *}")" \
  --output /dev/null 2>"$OUT/warmup.err" || { cat "$OUT/warmup.err" >&2; exit 1; }

# ---------------------------------------------------------------------------------- probes
# measure KEY CMD...: runs CMD, records its wall time, its own CPU (user + sys of it and its
# children) and the whole machine's busy CPU meanwhile, in cores.
measure() {
  local key=$1 j0 j1 t0 t1 status=0
  shift
  read -r -a j0 < <(cpu_jiffies)
  t0=$(now)
  /usr/bin/time -f "%U %S" -o "$OUT/$key.time" "$@" || status=$?
  t1=$(now)
  read -r -a j1 < <(cpu_jiffies)
  record "$key.wall" "$(python3 -c "print($t1 - $t0)")"
  record "$key.own" "$(python3 -c "u, s = open('$OUT/$key.time').read().split()[-2:]; print((float(u) + float(s)) / ($t1 - $t0))")"
  record "$key.busy" "$(python3 -c "print(($((j1[0] - j0[0]))) / max(1, $((j1[1] - j0[1]))) * $(nproc))")"
  return $status
}
cpu_note() {   # key: " cpu: own X, busy Y of N cores"
  python3 - "$RESULTS" "$1" "$(nproc)" <<'PY'
import sys
r = dict(l.rstrip("\n").split("\t") for l in open(sys.argv[1]))
print(f"cpu own {float(r[sys.argv[2] + '.own']):4.2f}, busy {float(r[sys.argv[2] + '.busy']):4.2f} of {sys.argv[3]} cores")
PY
}

tool() {   # key size cold|warm [options...]: one run of this tool on table SIZE
  local key=$1 size=$2 cache=$3 status=0
  shift 3
  [[ $cache == warm ]] || drop_caches
  measure "$key" "$SUBMIT" analyze --data-dir "$WORK/data" --database bench --table "public.$(name_of "$size")" \
    --format csv --output "$OUT/$key.csv" --metrics-out "$OUT/$key.json" "$@" 2>"$OUT/$key.err" || status=$?
  if [[ $status -ne 0 ]]; then log "the tool failed ($key, exit $status):"; cat "$OUT/$key.err" >&2; exit 1; fi
  record "$key.metrics" "$OUT/$key.json"
  python3 - "$RESULTS" "$key" "$cache" "$(cpu_note "$key")" <<'PY'
import json, sys
r = dict(l.rstrip("\n").split("\t") for l in open(sys.argv[1]))
key = sys.argv[2]
m = json.load(open(r[key + ".metrics"]))
print(f"  {key:24s} {sys.argv[3]}  process {float(r[key + '.wall']):6.2f} s  scan {m['scan_seconds']:6.2f} s  "
      f"{m['blocks_read']:6d} blocks / {m['read_calls']:6d} reads {m['blocks_read'] / m['scan_seconds']:7.0f} blocks/s"
      f" {m['scan_mb_per_second']:5.0f} MB/s  K={m['io_concurrency']} B={m['io_combine_limit']}"
      f"{' direct' if m['direct_io'] else ''} par={m['parallelism']}  {sys.argv[4]}")
PY
}

fio_rand() {   # key jobs size: random 8 kB O_DIRECT reads on the table's files, cold
  local key=$1 jobs=$2 size=$3
  drop_caches
  measure "$key" fio --name="$key" --filename="${FILES[$size]}" --readonly --rw=randread --bs=8k --direct=1 \
    --ioengine=psync --iodepth=1 --numjobs="$jobs" --group_reporting --randrepeat=0 \
    --time_based --runtime="$FIO_SECONDS" --output-format=json --output="$OUT/$key.json" >/dev/null
  record "$key.fio" "$OUT/$key.json"
  python3 - "$OUT/$key.json" "$key" "$jobs" "$(cpu_note "$key")" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["read"]
print(f"  {sys.argv[2]:24s} cold  fio {int(sys.argv[3]):2d} reader(s) {r['iops']:8.0f} reads/s {r['bw_bytes'] / 1e6:6.1f} MB/s"
      f"  latency mean {r['clat_ns']['mean'] / 1000:5.0f} us                             {sys.argv[4]}")
PY
}

pgstattuple_cold() {   # key size: pgstattuple() on a freshly started server, cache dropped
  local key=$1 size=$2
  stop; drop_caches; start
  measure "$key" bash -c "$(declare -f as_pg psql); PG_BIN='$PG_BIN' WORK='$WORK' PORT='$PORT'
    psql -d bench -At -c '\\timing on' -c \"SELECT * FROM pgstattuple('$(name_of "$size")')\"" > "$OUT/$key.out"
  record "$key.query" "$(sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' "$OUT/$key.out" | python3 -c "import sys; print(float(sys.stdin.read()) / 1000)")"
  python3 - "$RESULTS" "$key" "$(cpu_note "$key")" <<'PY'
import sys
r = dict(l.rstrip("\n").split("\t") for l in open(sys.argv[1]))
k = sys.argv[2]
print(f"  {k:24s} cold  process {float(r[k + '.wall']):6.2f} s  query {float(r[k + '.query']):5.2f} s"
      f"  (psql; the server's CPU counts in busy)                                  {sys.argv[3]}")
PY
}

dd_cold() {   # key size: dd bs=1M of the table's files, one after the other, cold
  local key=$1 size=$2 bytes=0 f
  drop_caches
  measure "$key" bash -c "for f in ${FILES[$size]//:/ }; do dd if=\$f of=/dev/null bs=1M status=none; done"
  for f in ${FILES[$size]//:/ }; do bytes=$((bytes + $(stat -c %s "$f"))); done
  record "$key.bytes" "$bytes"
  python3 - "$RESULTS" "$key" "$(cpu_note "$key")" <<'PY'
import sys
r = dict(l.rstrip("\n").split("\t") for l in open(sys.argv[1]))
k = sys.argv[2]; b = int(r[k + ".bytes"]); s = float(r[k + ".wall"])
print(f"  {k:24s} cold  dd bs=1M {b / 1e6:6.0f} MB in {s:5.2f} s {b / 1e6 / s:6.0f} MB/s"
      f"                                                   {sys.argv[3]}")
PY
}

host_warmup() {   # size: one O_DIRECT pass over the table (see the header)
  [[ $HOST_WARMUP == 1 ]] || return 0
  local f
  for f in ${FILES[$1]//:/ }; do dd if="$f" of=/dev/null bs=1M iflag=direct status=none; done
}

# ---------------------------------------------------------------------------------- runs
exec > >(tee "$TXT")
cpu=$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)
echo "== pgbloat-spark I/O benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'), tool at commit $COMMIT"
echo "   $(nproc) cores ($cpu), $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo) RAM," \
  "disk $(df -P "$WORK" | awk 'NR == 2 { print $1 }') (scheduler $(sed -n 's/.*\[\(.*\)\].*/\1/p' \
  /sys/block/"$(basename "$(df -P "$WORK" | awk 'NR == 2 { print $1 }')")"/queue/scheduler 2>/dev/null || echo '?')),"\
  "kernel $(uname -r), $(fio --version), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "   tables (GB): $SIZES in $WORK; every run is cold (page cache dropped first) unless marked warm;"
echo "   host cache warm-up before each group: $([[ $HOST_WARMUP == 1 ]] && echo 'yes (one O_DIRECT pass over the table)' || echo no)"
echo

echo "-- measurements: prefetch on the $PREFETCH_GB GB table ($PREFETCH_BLOCKS sampled blocks, local[1], B=16), fio ${FIO_SECONDS} s each, $PREFETCH_ROUNDS rounds"
# warm: the K=16 run again with the same seed, the blocks now in the page cache: the scan's
# cost without disk reads (its CPU floor); tiny: 100 blocks, the scan stage's fixed cost
# (job and task start, code not yet compiled). Each round samples new blocks (seed 100 r + k).
prefetch_step() {   # round step
  local r=$1 o=(--master 'local[1]' --sample-blocks "$PREFETCH_BLOCKS" --io-combine-limit 16)
  case $2 in
    fio1) fio_rand "pf.$r.fio1" 1 "$PREFETCH_GB" ;;
    fio16) fio_rand "pf.$r.fio16" 16 "$PREFETCH_GB" ;;
    k1) tool "pf.$r.k1" "$PREFETCH_GB" cold "${o[@]}" --io-concurrency 1 --buffered-io --seed $((100 * r + 1)) ;;
    k16) tool "pf.$r.k16" "$PREFETCH_GB" cold "${o[@]}" --io-concurrency 16 --buffered-io --seed $((100 * r + 16))
      tool "pf.$r.k16warm" "$PREFETCH_GB" warm "${o[@]}" --io-concurrency 16 --buffered-io --seed $((100 * r + 16))
      tool "pf.$r.tiny" "$PREFETCH_GB" cold --master 'local[1]' --sample-blocks 100 --io-concurrency 16 --buffered-io \
        --seed $((100 * r + 99)) ;;
    k1direct) tool "pf.$r.k1direct" "$PREFETCH_GB" cold "${o[@]}" --io-concurrency 1 --direct-io --seed $((100 * r + 2)) ;;
    k16direct) tool "pf.$r.k16direct" "$PREFETCH_GB" cold "${o[@]}" --io-concurrency 16 --direct-io --seed $((100 * r + 17)) ;;
  esac
}
for ((r = 1; r <= PREFETCH_ROUNDS; r++)); do
  host_warmup "$PREFETCH_GB"
  steps=(fio1 k1 k1direct fio16 k16 k16direct)
  ((r % 2)) || steps=(k16direct k16 fio16 k1direct k1 fio1)
  for step in "${steps[@]}"; do prefetch_step "$r" "$step"; done
done

echo
echo "-- measurements: size series (sampled $SAMPLE_BLOCKS blocks and full scan with the default master and I/O settings), $SERIES_ROUNDS rounds"
for ((r = 1; r <= SERIES_ROUNDS; r++)); do
  for size in $SIZES; do
    host_warmup "$size"
    if ((r % 2)); then
      tool "ser.$r.$size.sampled" "$size" cold --sample-blocks "$SAMPLE_BLOCKS"
      tool "ser.$r.$size.full" "$size" cold --full-scan
      [[ $size != "$LARGEST" ]] || dd_cold "ser.$r.$size.dd" "$size"
      pgstattuple_cold "ser.$r.$size.pg" "$size"
      stop
    else
      pgstattuple_cold "ser.$r.$size.pg" "$size"
      stop
      [[ $size != "$LARGEST" ]] || dd_cold "ser.$r.$size.dd" "$size"
      tool "ser.$r.$size.full" "$size" cold --full-scan
      tool "ser.$r.$size.sampled" "$size" cold --sample-blocks "$SAMPLE_BLOCKS"
    fi
  done
done
stop

echo
echo "-- measurements: steady state (one task, no Spark: $PREFETCH_BLOCKS blocks, K=16, B=16, O_DIRECT, C1 as submit.sh runs samples, 6 rounds)"
host_warmup "$PREFETCH_GB"
# the tool copy's own benchmark scripts (they build its test classes first)
JAVA_OPTS=-XX:TieredStopAtLevel=1 "$TOOLDIR/bench/scan-cost.sh" "$WORK/data" bench "public.$(name_of "$PREFETCH_GB")" \
  "$PREFETCH_BLOCKS" 16 16 true 6 | grep '^round' | tee "$OUT/steady.txt" | sed 's/^/  /'
echo "-- measurements: notebook (local[2] session, $SAMPLE_BLOCKS sampled blocks of the $LARGEST GB table, $NOTEBOOK_ROUNDS rounds)"
"$TOOLDIR/bench/notebook-cost.sh" "$WORK/data" bench "public.$(name_of "$LARGEST")" "$SAMPLE_BLOCKS" \
  "$NOTEBOOK_ROUNDS" 2>/dev/null | grep '^round' | tee "$OUT/notebook.txt" | sed 's/^/  /'

echo
python3 - "$RESULTS" "$SVG" "$PREFETCH_GB" "$LARGEST" "$SAMPLE_BLOCKS" "$PREFETCH_BLOCKS" "$SIZES" \
  "$PREFETCH_ROUNDS" "$SERIES_ROUNDS" "$(nproc)" "$OUT" <<'PY'
import json, re, statistics, sys
results, svg_path, pf, largest, sample_blocks, prefetch_blocks, sizes, pr, sr, ncpu, outdir = sys.argv[1:12]
sizes, pr, sr, ncpu = sizes.split(), int(pr), int(sr), int(ncpu)
r = dict(l.rstrip("\n").split("\t") for l in open(results))
def metrics(key): return json.load(open(r[key + ".metrics"]))
def fio(key): return json.load(open(r[key + ".fio"]))["jobs"][0]["read"]["iops"]
def others(key): return max(0.0, float(r[key + ".busy"]) - float(r[key + ".own"]))
def verdict(x, goal): return f"goal >= {goal:.0f} %: {'met' if x * 100 >= goal else 'MISSED'}"
med = statistics.median

print(f"== 1. prefetch gain ({pf} GB table, {prefetch_blocks} sampled blocks, local[1], io-combine-limit 16, cold)")
print("   round | fio reads/s: 1 reader  16 readers  gain | tool scan s: K=1   K=16  gain | ours/fio's |"
      " K=16 direct-io | K=16 warm | others' CPU")
rows = []
for i in range(1, pr + 1):
    p = f"pf.{i}."
    f1, f16 = fio(p + "fio1"), fio(p + "fio16")
    k1, k16 = metrics(p + "k1")["scan_seconds"], metrics(p + "k16")["scan_seconds"]
    kd, kw = metrics(p + "k16direct")["scan_seconds"], metrics(p + "k16warm")["scan_seconds"]
    k1d = metrics(p + "k1direct")["scan_seconds"]
    fixed = metrics(p + "tiny")["scan_seconds"]
    oth = statistics.mean(others(p + k) for k in ("fio1", "fio16", "k1", "k1direct", "k16", "k16direct"))
    rows.append(dict(f1=f1, f16=f16, fg=f16 / f1, k1=k1, k16=k16, tg=k1 / k16, q=(k1 / k16) / (f16 / f1), kd=kd, kw=kw,
                     k1d=k1d, qd=(k1d / kd) / (f16 / f1),
                     rate=metrics(p + "k16")["blocks_read"] / k16, rated=metrics(p + "k16direct")["blocks_read"] / kd,
                     oth=oth, fixed=fixed, net=(k1 - fixed) / max(1e-3, k16 - fixed)))
    x = rows[-1]
    print(f"   {i:5d} | {f1:20.0f} {f16:11.0f} {x['fg']:5.2f}x | {k1:15.2f} {k16:6.2f} {x['tg']:4.2f}x | {x['q'] * 100:9.0f} % |"
          f" {kd:12.2f} s | {kw:7.2f} s | {oth:5.2f} cores")
m = {k: med(x[k] for x in rows) for k in rows[0]}
print(f"   median| {m['f1']:20.0f} {m['f16']:11.0f} {m['fg']:5.2f}x | {m['k1']:15.2f} {m['k16']:6.2f} {m['tg']:4.2f}x |"
      f" {m['q'] * 100:9.0f} % | {m['kd']:12.2f} s | {m['kw']:7.2f} s | {m['oth']:5.2f} cores")
print(f"   prefetch gain: this tool K=1 / K=16 scan seconds {m['tg']:.2f}x, fio 16 / 1 readers {m['fg']:.2f}x;"
      f" with --direct-io K=1 / K=16 {m['k1'] / m['kd']:.2f}x")
print(f"   net of the scan stage's fixed cost ({m['fixed']:.2f} s: a 100-block scan), this tool's gain is {m['net']:.2f}x"
      f" = {med(x['net'] / x['fg'] for x in rows) * 100:.0f} % of fio's")
print(f"   the CPU floor caps it: K=1 cold / K=16 warm (the gain if reads cost nothing) = {med(x['k1'] / x['kw'] for x in rows):.2f}x"
      f" = {med(x['k1'] / x['kw'] / x['fg'] for x in rows) * 100:.0f} % of fio's gain")
print(f"   ours / fio's = {m['q'] * 100:.0f} % (median of the rounds' ratios)   ({verdict(m['q'], 85)})")
print(f"   like for like, both O_DIRECT (fio reads with it): --direct-io K=1 {m['k1d']:.2f} s / K=16 {m['kd']:.2f} s ="
      f" {m['k1d'] / m['kd']:.2f}x = {m['qd'] * 100:.0f} % of fio's gain   ({verdict(m['qd'], 85)})")
print()
print(f"== 2. random-read rate (the K=16 sampled scans above, cold)")
print(f"   this tool K=16: {m['rate']:.0f} blocks/s (median; rounds: {', '.join('%.0f' % x['rate'] for x in rows)});"
      f" fio 16 readers: {m['f16']:.0f} reads/s")
frac = med(x["rate"] / x["f16"] for x in rows)
print(f"   fraction = {frac * 100:.0f} % (median of the rounds)   ({verdict(frac, 80)});"
      f" with --direct-io {med(x['rated'] / x['f16'] for x in rows) * 100:.0f} %")
print(f"   where the time goes (medians): the K=16 scan takes {m['k16']:.2f} s cold and {m['kw']:.2f} s warm (no disk reads),"
      f" {m['fixed']:.2f} s of it the fixed cost")
print(f"   of a scan stage (a 100-block scan); fio's 16 readers read {prefetch_blocks} blocks in"
      f" {int(prefetch_blocks) / m['f16']:.2f} s; net of the fixed cost, the scan reads"
      f" {med((int(prefetch_blocks) - 100) / max(1e-3, x['k16'] - x['fixed']) / x['f16'] for x in rows) * 100:.0f} % of fio's rate;")
print(f"   with no disk reads at all (warm) it processes {int(prefetch_blocks) / m['kw']:.0f} blocks/s ="
      f" {med(int(prefetch_blocks) / x['kw'] / x['f16'] for x in rows) * 100:.0f} % of fio's 16-reader rate")
print()

print(f"== 3. size series (cold, best of {sr} rounds, each figure its own best; seconds: whole process / scan stage;"
      f" pgstattuple: psql process / query)")
head = (f"   {'table':>8s} {'blocks':>7s} | {'sampled ' + sample_blocks:>17s} | {'full scan':>17s} | {'pgstattuple':>17s} |"
        f" full scan MB/s  pgstattuple MB/s | others' CPU")
print(head)
print("   " + "-" * (len(head) - 3))
points = {"sampled": [], "full": [], "pgstattuple": []}
for s in sizes:
    b = int(r[f"bytes.{s}"])
    keys = [f"ser.{i}.{s}" for i in range(1, sr + 1)]
    sw = min(float(r[k + ".sampled.wall"]) for k in keys); ss = min(metrics(k + ".sampled")["scan_seconds"] for k in keys)
    fw = min(float(r[k + ".full.wall"]) for k in keys); fs = min(metrics(k + ".full")["scan_seconds"] for k in keys)
    pw = min(float(r[k + ".pg.wall"]) for k in keys); pq = min(float(r[k + ".pg.query"]) for k in keys)
    oth = statistics.mean(others(k + "." + t) for k in keys for t in ("sampled", "full"))
    gb = b / 2**30
    print(f"   {gb:5.2f} GB {b // 8192:7d} | {sw:6.2f} / {ss:6.2f} s | {fw:6.2f} / {fs:6.2f} s | {pw:6.2f} / {pq:6.2f} s |"
          f" {b / 1e6 / fs:14.0f} {b / 1e6 / pq:17.0f} | {oth:5.2f} cores")
    points["sampled"].append((gb, sw)); points["full"].append((gb, fw)); points["pgstattuple"].append((gb, pw))
print(f"   (others' CPU: the machine's busy cores during the tool's runs minus the tool's own; {ncpu} cores in all)")
print()

print(f"== 4. full scan vs dd and pgstattuple ({int(r[f'bytes.{largest}']) / 2**30:.2f} GB table, cold; dd bs=1M of its"
      f" files and pgstattuple() next to the full scan in each round)")
dd_fracs, pg_ratios = [], []
for i in range(1, sr + 1):
    k = f"ser.{i}.{largest}"
    fl = metrics(k + ".full")
    dd = int(r[k + ".dd.bytes"]) / 1e6 / float(r[k + ".dd.wall"])
    pg = int(r[f"bytes.{largest}"]) / 1e6 / float(r[k + ".pg.query"])
    dd_fracs.append(fl["scan_mb_per_second"] / dd); pg_ratios.append(fl["scan_mb_per_second"] / pg)
    print(f"   round {i}: this tool --full-scan, scan stage {fl['scan_mb_per_second']:5.0f} MB/s ({fl['scan_seconds']:.2f} s,"
          f" parallelism {fl['parallelism']}, others' CPU {others(k + '.full'):.2f} cores); dd {dd:5.0f} MB/s"
          f" ({float(r[k + '.dd.wall']):.2f} s, its own CPU {float(r[k + '.dd.own']):.2f} cores): {dd_fracs[-1] * 100:.0f} %;"
          f" pgstattuple {pg:5.0f} MB/s: {pg_ratios[-1]:.2f}x")
print(f"   against dd = {med(dd_fracs) * 100:.0f} % (median of the rounds)   ({verdict(med(dd_fracs), 75)})")
print(f"   against pgstattuple = {med(pg_ratios):.2f}x (median of the rounds)   (goal >= 2x: {'met' if med(pg_ratios) >= 2 else 'MISSED'})")
print()

steady = [float(x) for x in re.findall(r"^round \d+: .*?, ([0-9.]+) s,", open(f"{outdir}/steady.txt").read(), re.M)]
steady_rate = int(prefetch_blocks) / med(steady[2:])
cli_rates = [x["rated"] for x in rows]
print(f"== 5. steady state against the CLI ({prefetch_blocks} sampled blocks, one task, K=16, B=16, O_DIRECT)")
print(f"   one task without Spark (rounds 3-{len(steady)}): {steady_rate:.0f} blocks/s"
      f" ({', '.join('%.3f' % x for x in steady[2:])} s); the CLI's scan stage (part 1, --direct-io K=16):"
      f" {med(cli_rates):.0f} blocks/s")
print(f"   CLI / steady state = {med(cli_rates) / steady_rate * 100:.0f} %   ({verdict(med(cli_rates) / steady_rate, 85)});"
      f" steady state / fio 16 readers = {steady_rate / m['f16'] * 100:.0f} %")
print()

nb = [float(x) for x in re.findall(r"^round \d+: data source ([0-9.]+) s", open(f"{outdir}/notebook.txt").read(), re.M)]
pg_cold = med(float(r[f"ser.{i}.{largest}.pg.query"]) for i in range(1, sr + 1))
print(f"== 6. a sampled query in a warm notebook session ({sample_blocks} blocks of the {largest} GB table, local[2])")
print(f"   data source, rounds 2-{len(nb)}: {', '.join('%.3f' % x for x in nb[1:])} s (round 1, cold JVM: {nb[0]:.2f} s);"
      f" pgstattuple() cold: {pg_cold:.2f} s (median of part 3)")
print(f"   pgstattuple / notebook = {pg_cold / med(nb[1:]):.1f}x   (goal >= 20x: {'met' if pg_cold / med(nb[1:]) >= 20 else 'MISSED'})")

# --- the plot: hand-written SVG, seconds (whole process) against table size
W, H, L, R, T, B = 640, 400, 64, 24, 64, 56
xmax = max(p[0] for v in points.values() for p in v)
ymax = max(p[1] for v in points.values() for p in v)
def step(span):
    for s in (0.5, 1, 2, 2.5, 5, 10, 20, 25, 50, 100, 200, 250, 500):
        if span / s <= 8: return s
    return 1000
xs, ys = step(xmax), step(ymax * 1.05)
xtop = xs * -(-xmax // xs); ytop = ys * -(-ymax * 1.05 // ys)
X = lambda v: L + v / xtop * (W - L - R)
Y = lambda v: H - B - v / ytop * (H - T - B)
esc = lambda t: t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
     f'font-family="Helvetica, Arial, sans-serif" font-size="12">',
     f'<rect width="{W}" height="{H}" fill="white"/>',
     f'<text x="{W / 2}" y="22" text-anchor="middle" font-size="15">Time to report one table\'s bloat, cold cache</text>',
     f'<text x="{W / 2}" y="40" text-anchor="middle" fill="#555">whole process; 20 % of rows dead;'
     f' best of {sr} runs; {ncpu} cores (bench/io-bench.sh)</text>']
v = 0.0
while v <= ytop + 1e-9:
    o.append(f'<line x1="{L}" y1="{Y(v):.1f}" x2="{W - R}" y2="{Y(v):.1f}" stroke="#e4e4e4"/>')
    o.append(f'<text x="{L - 6}" y="{Y(v) + 4:.1f}" text-anchor="end">{v:g}</text>')
    v += ys
v = 0.0
while v <= xtop + 1e-9:
    o.append(f'<line x1="{X(v):.1f}" y1="{H - B}" x2="{X(v):.1f}" y2="{H - B + 5}" stroke="black"/>')
    o.append(f'<text x="{X(v):.1f}" y="{H - B + 18}" text-anchor="middle">{v:g}</text>')
    v += xs
o.append(f'<line x1="{L}" y1="{H - B}" x2="{W - R}" y2="{H - B}" stroke="black"/>')
o.append(f'<line x1="{L}" y1="{T}" x2="{L}" y2="{H - B}" stroke="black"/>')
o.append(f'<text x="{(L + W - R) / 2}" y="{H - 14}" text-anchor="middle">table size (GB)</text>')
o.append(f'<text x="16" y="{(T + H - B) / 2}" text-anchor="middle" '
         f'transform="rotate(-90 16 {(T + H - B) / 2})">seconds</text>')
series = [("pgstattuple", "pgstattuple() on the running server", "#d62728", "square"),
          ("full", "this tool, --full-scan (stopped cluster)", "#1f77b4", "circle"),
          ("sampled", f"this tool, sampled ({sample_blocks} blocks)", "#2ca02c", "diamond")]
for i, (key, label, color, marker) in enumerate(series):
    pts = points[key]
    o.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="'
             + " ".join(f"{X(x):.1f},{Y(y):.1f}" for x, y in pts) + '"/>')
    for x, y in pts:
        cx, cy = X(x), Y(y)
        if marker == "circle":
            o.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4" fill="{color}"/>')
        elif marker == "square":
            o.append(f'<rect x="{cx - 4:.1f}" y="{cy - 4:.1f}" width="8" height="8" fill="{color}"/>')
        else:
            o.append(f'<polygon points="{cx:.1f},{cy - 5:.1f} {cx + 5:.1f},{cy:.1f} {cx:.1f},{cy + 5:.1f} '
                     f'{cx - 5:.1f},{cy:.1f}" fill="{color}"/>')
o.append(f'<rect x="{L + 6}" y="{T}" width="270" height="{18 * len(series) + 2}" fill="white" fill-opacity="0.85"/>')
for i, (key, label, color, marker) in enumerate(series):
    ly = T + 10 + 18 * i
    o.append(f'<line x1="{L + 12}" y1="{ly}" x2="{L + 38}" y2="{ly}" stroke="{color}" stroke-width="2"/>')
    o.append(f'<text x="{L + 44}" y="{ly + 4}">{esc(label)}</text>')
o.append("</svg>")
with open(svg_path, "w") as f:
    f.write("\n".join(o) + "\n")
print()
print(f"plot: {svg_path}")
PY
echo "data kept in $WORK (pass it again as WORKDIR to re-run without rebuilding the tables)"
