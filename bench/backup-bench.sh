#!/usr/bin/env bash
# Backups read in place against their codec, side by side, cold (page cache dropped before
# every measurement) or, with CACHE=warm, warm (the files read once before, the tool reading
# through the page cache as the codec does: --buffered-io), median of ROUNDS rounds:
#
#   for each compressed form of one cluster (pg_basebackup -Ft -z, --compress=server-lz4,
#   --compress=client-zstd; a pgBackRest repository with compress-type=zst), the tool's full
#   scan (the whole process: JVM, Spark, opening the backup, the scan) against the codec's own
#   command decoding the same files on one core (taskset -c 0: gzip -dc, lz4 -dc, zstd -dc),
#   both as MB/s of decoded bytes; and for the uncompressed tar, the tool against cat. Beside
#   the whole process, the tool's counting stage alone (its --metrics-out scan_seconds, the job
#   after planning, plus counted_while_indexing_seconds: a compressed tar's pages are counted
#   as it decodes to be indexed).
#
# The cluster, made once in WORKDIR with PostgreSQL 15 and kept (a re-run only measures), is
# one of two DATASETs, each about 15 MB a unit of SCALE:
#   pgbench  pgbench -i at scale SCALE, then 20 % of pgbench_accounts deleted. Its rows are
#            mostly blank padding, which lz4 and zstd decode at several GB/s;
#   text     pgbench -i at scale 10, and a table of SCALE * 100000 rows of random hex text, a
#            number and a time, 20 % of them deleted: rows that compress about as much as a
#            typical table's (to a half), so the codecs decode at their usual speed.
#
# usage: bench/backup-bench.sh [WORKDIR]            (as root: cache drops, runuser, taskset)
# environment: DATASET=pgbench, SCALE=200, ROUNDS=3, CACHE=cold, PG_BIN=/usr/lib/postgresql/15/bin,
#   FORMS="plain gzip server-lz4 client-zstd pgbackrest-zst" (the backups made and measured)
# output: stdout and bench/out/backup-bench-DATASET.txt
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${1:-$(mktemp -d "${TMPDIR:-/tmp}/pgbloat-backup-bench.XXXXXX")}
WORK=$(mkdir -p "$WORK" && cd "$WORK" && pwd)
SCALE=${SCALE:-200}
DATASET=${DATASET:-pgbench}
FORMS=${FORMS:-plain gzip server-lz4 client-zstd pgbackrest-zst}
ROUNDS=${ROUNDS:-3}
CACHE=${CACHE:-cold}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PORT=$((20000 + RANDOM % 20000))
OUT=$HERE/bench/out/backup-bench-$DATASET.txt
mkdir -p "$HERE/bench/out"
chown postgres "$WORK"
as_pg() { runuser -u postgres -- "$@"; }
case $CACHE in
  cold) before_each() { sync; echo 3 > /proc/sys/vm/drop_caches; }; TOOL_IO=() ;;
  warm) before_each() { :; }; TOOL_IO=(--buffered-io) ;;   # warmed by the count of decoded bytes below
  *) echo "CACHE is cold or warm, not '$CACHE'" >&2; exit 2 ;;
esac
seconds() { local s; s=$(date +%s.%N); "$@" > /dev/null 2>&1; echo "$(date +%s.%N) - $s" | bc; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

basebackup_option() {
  case $1 in
    plain) ;; gzip) echo -z ;; server-lz4) echo --compress=server-lz4 ;; client-zstd) echo --compress=client-zstd ;;
    *) echo "FORMS names plain, gzip, server-lz4, client-zstd and pgbackrest-zst, not '$1'" >&2; exit 2 ;;
  esac
}
for form in $FORMS; do
  [[ $form == pgbackrest-zst ]] || basebackup_option "$form" > /dev/null
done

if [[ -f $WORK/made && $(cat "$WORK/made") != "$DATASET $SCALE" ]]; then
  echo "$WORK holds the dataset $(cat "$WORK/made"), not $DATASET $SCALE: give another WORKDIR" >&2; exit 2
fi
if [[ ! -f $WORK/made ]]; then
  rm -rf "$WORK/data" "$WORK/backups" "$WORK/repo"
  as_pg "$PG_BIN/initdb" -D "$WORK/data" -A trust --data-checksums > /dev/null
  cat >> "$WORK/data/postgresql.conf" <<EOF
port = $PORT
listen_addresses = ''
unix_socket_directories = '$WORK'
wal_level = replica
max_wal_senders = 4
autovacuum = off
archive_mode = on
archive_command = 'pgbackrest --config=$WORK/pgbackrest.conf --stanza=bench archive-push %p'
EOF
  cat > "$WORK/pgbackrest.conf" <<EOF
[global]
repo1-path=$WORK/repo
compress-type=zst
start-fast=y
archive-copy=y
log-level-console=warn
log-level-file=off
lock-path=$WORK
archive-timeout=600
[bench]
pg1-path=$WORK/data
pg1-socket-path=$WORK
pg1-port=$PORT
EOF
  mkdir -p "$WORK/repo" "$WORK/backups"
  chown postgres "$WORK/repo" "$WORK/backups" "$WORK/pgbackrest.conf"
  as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -l "$WORK/log" -w start > /dev/null
  # the stanza first, so that the load's WAL is archived as it comes, not all at the backup
  as_pg pgbackrest --config="$WORK/pgbackrest.conf" --stanza=bench stanza-create
  case $DATASET in
    pgbench)
      as_pg "$PG_BIN/pgbench" -h "$WORK" -p "$PORT" -i -s "$SCALE" -q postgres
      as_pg "$PG_BIN/psql" -h "$WORK" -p "$PORT" -d postgres -qc "DELETE FROM pgbench_accounts WHERE aid % 5 = 0" ;;
    text)
      as_pg "$PG_BIN/pgbench" -h "$WORK" -p "$PORT" -i -s 10 -q postgres
      as_pg "$PG_BIN/psql" -h "$WORK" -p "$PORT" -d postgres -q -v ON_ERROR_STOP=1 \
        -c "CREATE TABLE notes (id bigint, code text, body text, amount numeric(12,2), at timestamptz)" \
        -c "INSERT INTO notes SELECT g, md5(g::text), md5(random()::text) || md5(random()::text),
              (random() * 1e6)::numeric(12,2), now() - random() * interval '1000 days'
            FROM generate_series(1, $SCALE * 100000) g" \
        -c "DELETE FROM notes WHERE id % 5 = 0" ;;
    *) echo "DATASET is pgbench or text, not '$DATASET'" >&2; exit 2 ;;
  esac
  as_pg "$PG_BIN/psql" -h "$WORK" -p "$PORT" -d postgres -qc "CHECKPOINT"
  for form in $FORMS; do
    case $form in
      pgbackrest-zst)
        as_pg pgbackrest --config="$WORK/pgbackrest.conf" --stanza=bench backup --type=full ;;
      *) as_pg "$PG_BIN/pg_basebackup" -h "$WORK" -p "$PORT" -D "$WORK/backups/$form" -Ft -X stream \
           --checkpoint=fast $(basebackup_option "$form") ;;
    esac
  done
  as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -w stop > /dev/null
  echo "$DATASET $SCALE" > "$WORK/made"
fi

# built, and its class-data archive made, before anything is timed
(cd "$HERE" && ./submit.sh analyze --data-dir sample/pgdata --full-scan --quiet > /dev/null)
label=$(ls "$WORK/repo/backup/bench" 2>/dev/null | grep -E '^[0-9]{8}-[0-9]{6}F$' | tail -1 || true)
{
  echo "backup-bench: dataset $DATASET, scale $SCALE, 20 % of its big table deleted; $(nproc) cores; rounds $ROUNDS, $CACHE"
  printf '%-16s %10s %11s %10s %6s %11s %6s\n' form decoded_MB codec_MB/s tool_MB/s ratio scan_MB/s ratio
  for form in $FORMS; do
    [[ -e $WORK/backups/$form || ( $form == pgbackrest-zst && -n $label ) ]] \
      || { echo "$WORK has no $form backup: it was made with other FORMS" >&2; exit 2; }
    case $form in
      plain) codec=cat; files=("$WORK/backups/plain/"*.tar); dir=$WORK/backups/plain ;;
      gzip) codec=gzip; files=("$WORK/backups/gzip/"*.tar.gz); dir=$WORK/backups/gzip ;;
      server-lz4) codec=lz4; files=("$WORK/backups/server-lz4/"*.tar.lz4); dir=$WORK/backups/server-lz4 ;;
      client-zstd) codec=zstd; files=("$WORK/backups/client-zstd/"*.tar.zst); dir=$WORK/backups/client-zstd ;;
      pgbackrest-zst) codec=zstd; mapfile -t files < <(find "$WORK/repo/backup/bench/$label" -name '*.zst' | sort)
        dir="pgbackrest:$WORK/repo?set=$label" ;;
    esac
    if [[ $codec == cat ]]; then decode=(cat); else decode=("$codec" -dc); fi
    bytes=$("${decode[@]}" "${files[@]}" | wc -c)
    codec_s=(); tool_s=(); scan_s=()
    for ((r = 1; r <= ROUNDS; r++)); do
      before_each
      codec_s+=("$(seconds taskset -c 0 "${decode[@]}" "${files[@]}")")
      before_each
      rm -f "$WORK/metrics.json"
      tool_s+=("$(seconds "$HERE/submit.sh" analyze --data-dir "$dir" --full-scan --format csv --quiet --master 'local[2]' \
        "${TOOL_IO[@]}" --metrics-out "$WORK/metrics.json")")
      # the counting: the tasks' scan, and a compressed tar's pages counted as it was indexed
      scan_s+=("$(python3 -c 'import json, sys; m = json.load(open(sys.argv[1]))
print(m["scan_seconds"] + m["counted_while_indexing_seconds"])' "$WORK/metrics.json" 2>/dev/null)")
      [[ -n ${scan_s[-1]} ]] || { echo "the tool failed on $dir: run it by hand to see why" >&2; exit 1; }
    done
    c=$(median "${codec_s[@]}"); t=$(median "${tool_s[@]}"); s=$(median "${scan_s[@]}")
    mb=$(echo "$bytes / 1000000" | bc -l)
    printf '%-16s %10.0f %11.0f %10.0f %5.0f%% %11.0f %5.0f%%   (codec s: %s; tool s: %s; scan stage s: %s)\n' "$form" "$mb" \
      "$(echo "$mb / $c" | bc -l)" "$(echo "$mb / $t" | bc -l)" "$(echo "100 * $c / $t" | bc -l)" \
      "$(echo "$mb / $s" | bc -l)" "$(echo "100 * $c / $s" | bc -l)" "${codec_s[*]}" "${tool_s[*]}" "${scan_s[*]}"
  done
} | tee "$OUT"
