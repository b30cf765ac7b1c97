#!/usr/bin/env bash
# The same data directories read from four stores, side by side in one run: a local directory,
# an HDFS (a MiniDFSCluster of one data node in a JVM of its own: HdfsServer), S3Proxy (a real S3
# REST server over a local directory, in a JVM of its own: S3ProxyServer) and S3Proxy behind a
# 20 ms delay before each response (no netem here: the delay is a proxy's). For each store:
#   plan    the driver's plan of the directory without Spark (PlanCost: median of rounds 2-5)
#           and what it asked of the store;
#   sample  a 3000-block sample of one large table by the command line, cold (page cache
#           dropped before each run), median of ROUNDS interleaved runs: scan and job seconds,
#           and the store's requests from --metrics-out;
#   full    a full scan of that table beside Hadoop's own client reading its files whole with
#           as many streams as the scan has tasks (ObjectReadCost), cold.
# MANY_DIR (optional) is a data directory of many small tables (bench/many-tables.sh makes one):
# only planned, on local, HDFS and S3Proxy + 20 ms (held in memory with its keys sorted, so that a
# page of a listing costs the page, as on S3: jclouds' own stores walk or sort the whole prefix
# for every page).
#
# usage: bench/remote-stores.sh BIG_DIR DATABASE SCHEMA.TABLE [MANY_DIR]
# environment: ROUNDS (3), DELAY_MS (20), WORK (a temporary directory), HDFS=0 (leave HDFS out),
#   FULL=0 (leave the full scans out)
# Needs root to drop the page cache. Writes bench/out/remote-stores.txt.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[[ $# -ge 3 ]] || { sed -n 's/^# usage: /usage: /p' "$0" >&2; exit 2; }
BIG=$(cd "$1" && pwd); DB=$2; TABLE=$3; MANY=${4:+$(cd "$4" && pwd)}
ROUNDS=${ROUNDS:-3}; DELAY_MS=${DELAY_MS:-20}; WITH_HDFS=${HDFS:-1}; WITH_FULL=${FULL:-1}
WORK=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/pgbloat-remote.XXXXXX")}
OUT=$HERE/bench/out; mkdir -p "$OUT" "$WORK"
SAMPLE=$HERE/sample/pgdata
CP=$("$HERE/bench/test-classpath.sh")
(cd "$HERE" && mvn -q -B -P s3 -Dmaven.test.skip=true package >&2)   # submit.sh with the S3 connector
S3_KEYS=(fs.s3a.endpoint.region=us-east-1 fs.s3a.path.style.access=true fs.s3a.connection.ssl.enabled=false
  fs.s3a.aws.credentials.provider=org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider
  fs.s3a.access.key=pgbloat-test-access-key fs.s3a.secret.key=pgbloat-test-secret-key
  fs.s3a.change.detection.version.required=false)   # objects linked into the bucket have no ETag

pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT
# A server in its own JVM, fed through a FIFO (closing it stops the server); SERVED is its first line.
serve() {   # NAME CLASS ARGS...  (not in a subshell: the FIFO's writer must stay open)
  local name=$1; shift
  mkfifo "$WORK/$name.in"
  java -Xmx8g -Xlog:disable -cp "$CP" "$@" < "$WORK/$name.in" > "$WORK/$name.out" 2> "$WORK/$name.err" &
  pids+=($!)
  exec {fd}> "$WORK/$name.in"; eval "FD_$name=$fd"
  until [[ -s $WORK/$name.out ]]; do sleep 1; kill -0 "${pids[-1]}" 2>/dev/null || { cat "$WORK/$name.err" >&2; exit 1; }; done
  SERVED=$(head -1 "$WORK/$name.out")
}
requests() { local fd="FD_$1"; echo count >&"${!fd}"; sleep 0.3; tail -1 "$WORK/$1.out"; }

REMOTE=(s3 s3slow); HDFS_URL=
if [[ $WITH_HDFS == 1 ]]; then
  echo "remote-stores: copying into HDFS (minutes for gigabytes)" >&2
  trees=(sample="$SAMPLE" big="$BIG"); [[ -n $MANY ]] && trees+=(many="$MANY")
  serve hdfs io.pgbloat.bench.HdfsServer "$WORK/hdfs" 1 "${trees[@]}"; HDFS_URL=$SERVED
  REMOTE=(hdfs s3 s3slow)
fi
serve s3 io.pgbloat.bench.S3ProxyServer "$WORK/s3" 0 files bench sample="$SAMPLE" big="$BIG"; S3=$SERVED
serve s3slow io.pgbloat.bench.S3ProxyServer "$WORK/s3slow" "$DELAY_MS" files bench sample="$SAMPLE" big="$BIG"; S3SLOW=$SERVED
declare -A URL=([local]="" [hdfs]="$HDFS_URL/" [s3]="s3a://bench/" [s3slow]="s3a://bench/")
declare -A ENDPOINT=([s3]="$S3" [s3slow]="$S3SLOW")
hadoop_keys() { [[ -n ${ENDPOINT[$1]:-} ]] && printf '%s\n' "${S3_KEYS[@]}" "fs.s3a.endpoint=${ENDPOINT[$1]}"; true; }
where() { if [[ $1 == local ]]; then echo "$2"; else echo "${URL[$1]}$3"; fi; }   # STORE LOCAL_DIR NAME
cold() { sync; echo 1 > /proc/sys/vm/drop_caches; }
field() { python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(m[sys.argv[2]])" "$@"; }
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
STORES=(local "${REMOTE[@]}")

{
echo "# plan of the sample (PlanCost, median of rounds 2-5): seconds, and requests a round"
for s in "${STORES[@]}"; do
  mapfile -t keys < <(hadoop_keys "$s")
  line=$(java -Xlog:disable -cp "$CP" io.pgbloat.bench.PlanCost "$(where "$s" "$SAMPLE" sample)" 20 5 "${keys[@]}" 2>/dev/null | tail -1)
  echo "$s: ${line#*: }$([[ $s == s3* ]] && echo "; the server received, in the 5 rounds: $(requests "$s")")" | cut -c1-400
done

echo "# $TABLE: 3000-block sample, cold, median of $ROUNDS (scan_s job_s get head list)"
declare -A scan job
for r in $(seq "$ROUNDS"); do
  for s in "${STORES[@]}"; do
    mapfile -t keys < <(hadoop_keys "$s"); conf=(); for k in "${keys[@]}"; do conf+=(--conf "spark.hadoop.$k"); done
    cold
    "$HERE/submit.sh" analyze --data-dir "$(where "$s" "$BIG" big)" --database "$DB" --table "$TABLE" --sample-blocks 3000 \
      --master 'local[2]' --format csv --quiet --metrics-out "$WORK/m.json" "${conf[@]}" > /dev/null 2> "$WORK/err.txt"
    scan[$s]+="$(field "$WORK/m.json" scan_seconds) "; job[$s]+="$(field "$WORK/m.json" job_seconds) "
    echo "  round $r $s: scan $(field "$WORK/m.json" scan_seconds) s, job $(field "$WORK/m.json" job_seconds) s," \
      "get $(field "$WORK/m.json" get_requests) head $(field "$WORK/m.json" head_requests) list $(field "$WORK/m.json" list_requests)"
  done
done
for s in "${STORES[@]}"; do
  echo "$s: scan $(tr ' ' '\n' <<< "${scan[$s]}" | grep . | median) s, job $(tr ' ' '\n' <<< "${job[$s]}" | grep . | median) s"
done

[[ $WITH_FULL == 1 ]] && echo "# $TABLE: full scan, cold, beside Hadoop's client reading its files whole with 2 streams"
for s in $([[ $WITH_FULL == 1 ]] && echo "${REMOTE[@]}"); do
  mapfile -t keys < <(hadoop_keys "$s"); conf=(); for k in "${keys[@]}"; do conf+=(--conf "spark.hadoop.$k"); done
  cold
  "$HERE/submit.sh" analyze --data-dir "$(where "$s" "$BIG" big)" --database "$DB" --table "$TABLE" --full-scan \
    --master 'local[2]' --format csv --quiet --metrics-out "$WORK/m.json" "${conf[@]}" > "$WORK/full.csv" 2> "$WORK/err.txt"
  relpath=$(python3 -c "import csv,sys; print(next(r['relpath'] for r in csv.DictReader(open(sys.argv[1]))))" "$WORK/full.csv")
  files=(); for f in "$BIG/$relpath" "$BIG/$relpath".[0-9]*; do [[ -f $f ]] && files+=("$(where "$s" "$BIG" "big/${f#"$BIG"/}")"); done
  cold
  whole=$(java -Xlog:disable -cp "$CP" io.pgbloat.bench.ObjectReadCost 2 "${files[@]}" -- "${keys[@]}" 2>/dev/null | tail -1)
  echo "$s: tool $(field "$WORK/m.json" scan_mb_per_second) MB/s ($(field "$WORK/m.json" get_requests) GETs); client: ${whole#*: }"
done

if [[ -n $MANY ]]; then
  echo "# $MANY planned (PlanCost, one round after a warm-up): local, $([[ $WITH_HDFS == 1 ]] && echo "HDFS, ")S3Proxy in memory + $DELAY_MS ms"
  serve s3mem io.pgbloat.bench.S3ProxyServer "$WORK/s3mem" "$DELAY_MS" memory bench many="$MANY"
  ENDPOINT[s3mem]=$SERVED; URL[s3mem]="s3a://bench/"
  for s in local $([[ $WITH_HDFS == 1 ]] && echo hdfs) s3mem; do
    mapfile -t keys < <(hadoop_keys "$s")
    line=$(java -Xmx8g -Xlog:disable -cp "$CP" io.pgbloat.bench.PlanCost "$(where "$s" "$MANY" many)" 20 2 "${keys[@]}" 2>/dev/null | tail -1)
    echo "$s: ${line#*: }" | cut -c1-400
  done
  echo "s3mem server: $(requests s3mem)"
fi
} | tee "$OUT/remote-stores.txt"
