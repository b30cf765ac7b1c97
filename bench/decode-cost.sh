#!/usr/bin/env bash
# The tool's decoder alone against the codec's own command, side by side, warm: the same
# compressed files decoded by the codec's command on one core (taskset -c 0: gzip -dc, lz4 -dc,
# zstd -dc, bzip2 -dc), and by the decoder the tool reads them with (io.pgbloat.bench.DecodeCost:
# one thread, nothing counted, nothing read ahead; ROUNDS rounds in one JVM, the first paying
# for the JIT). What a streamed backup can reach at most when its decoder's thread is its limit.
#
# usage: bench/decode-cost.sh FILE...      e.g. bench/decode-cost.sh /tmp/bbench/backups/server-lz4/base.tar.lz4
# environment: ROUNDS=5 (at least 2; the JVM is not pinned, its JIT and collector may use another core)
# output: per file set, decoded MB, the codec's MB/s (median), the decoder's first round and
#   its median over the later rounds, and that median as a share of the codec's
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[[ $# -ge 1 ]] || { sed -n 's/^# usage: /usage: /p' "$0" >&2; exit 2; }
ROUNDS=${ROUNDS:-5}
[[ $ROUNDS -ge 2 ]] || { echo "ROUNDS is at least 2: the first pays for the JIT" >&2; exit 2; }
case $1 in
  *.gz) codec=gzip ;; *.lz4) codec=lz4 ;; *.zst) codec=zstd ;; *.bz2) codec=bzip2 ;;
  *) echo "$1: not .gz, .lz4, .zst or .bz2" >&2; exit 2 ;;
esac
CLASSPATH_ALL=$("$HERE/bench/test-classpath.sh")
# the middle value, or the mean of the two middle ones
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2)}'; }
seconds() { local s; s=$(date +%s.%N); "$@" > /dev/null || return 1; echo "$(date +%s.%N) - $s" | bc; }
# the files one after another, as one stream (lz4 -dc takes a second name for its output)
DECODE_ALL='codec=$1; shift; for f; do "$codec" -dc "$f" || exit 1; done'

bytes=$(sh -c "$DECODE_ALL" sh "$codec" "$@" | wc -c)   # also warms the page cache
codec_s=()
for ((r = 1; r <= ROUNDS; r++)); do
  t=$(seconds taskset -c 0 sh -c "$DECODE_ALL" sh "$codec" "$@") || { echo "$codec failed on $*" >&2; exit 1; }
  codec_s+=("$t")
done
mapfile -t tool_s < <(java -Xlog:disable -cp "$CLASSPATH_ALL" io.pgbloat.bench.DecodeCost "$ROUNDS" "$@" \
  | awk '{print $(NF-1)}')
[[ ${#tool_s[@]} -eq $ROUNDS ]] || { echo "DecodeCost failed on $*" >&2; exit 1; }
mb=$(echo "$bytes / 1000000" | bc -l)
c=$(median "${codec_s[@]}"); first=${tool_s[0]}; later=$(median "${tool_s[@]:1}")
printf '%-6s %10s %11s %15s %16s %6s\n' codec decoded_MB codec_MB/s decoder_first decoder_later ratio
printf '%-6s %10.0f %11.0f %15.0f %16.0f %5.0f%%   (codec s: %s; decoder s: %s)\n' "$codec" "$mb" \
  "$(echo "$mb / $c" | bc -l)" "$(echo "$mb / $first" | bc -l)" "$(echo "$mb / $later" | bc -l)" \
  "$(echo "100 * $c / $later" | bc -l)" "${codec_s[*]}" "${tool_s[*]}"
