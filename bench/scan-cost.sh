#!/usr/bin/env bash
# The per-block cost of one task's scan, without Spark or process start: the sampled blocks of
# one table read and counted ROUNDS times in one JVM, each round on new blocks (its own seed) and
# timed (the first pays for the
# JIT; later ones show the steady state). Warm unless the page cache is dropped before.
#
# usage: bench/scan-cost.sh DATA_DIR DATABASE SCHEMA.TABLE [SAMPLE_BLOCKS (0 = all) [K [B [DIRECT [ROUNDS [IN_FLIGHT [GAP]]]]]]]
# e.g.:  bench/scan-cost.sh /tmp/pgbloat-io-bench.X/data bench public.s4 20000 1
# environment: JAVA_OPTS (e.g. -XX:TieredStopAtLevel=1, as submit.sh runs the tool)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[[ $# -ge 3 ]] || { sed -n 's/^# usage: /usage: /p' "$0" >&2; exit 2; }
CLASSPATH_ALL=$("$HERE/bench/test-classpath.sh")
exec java ${JAVA_OPTS:-} -Xlog:disable -cp "$CLASSPATH_ALL" \
  io.pgbloat.bench.ScanCost "$1" "$2" "$3" "${4:-20000}" "${5:-1}" "${6:-16}" "${7:-false}" "${8:-5}" "${9:-1024}" "${10:-0}"
