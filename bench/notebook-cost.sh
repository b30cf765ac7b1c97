#!/usr/bin/env bash
# What a sampled query costs in a warm notebook session, and where the time goes: one local
# Spark session runs the same sampled analysis ROUNDS times, through the data source and the
# analyzer, printing each round's catalog read, planning, scan job and the rest. Compare with
# pgstattuple() cold on the same table (bench/io-bench.sh prints it).
#
# usage: bench/notebook-cost.sh DATA_DIR DATABASE SCHEMA.TABLE [SAMPLE_BLOCKS [ROUNDS]]
# e.g.:  bench/notebook-cost.sh /tmp/pgbloat-io-bench.X/data bench public.s4 3000 5
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[[ $# -ge 3 ]] || { sed -n 's/^# usage: /usage: /p' "$0" >&2; exit 2; }
CLASSPATH_ALL=$("$HERE/bench/test-classpath.sh")
OPENS=()
for pkg in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util java.util.concurrent \
    java.util.concurrent.atomic jdk.internal.ref sun.nio.ch sun.nio.cs sun.security.action sun.util.calendar; do
  OPENS+=("--add-opens=java.base/$pkg=ALL-UNNAMED")
done
export SPARK_LOCAL_IP=${SPARK_LOCAL_IP:-127.0.0.1}
exec java "${OPENS[@]}" -Dlog4j2.configurationFile="$HERE/conf/log4j2.properties" -Xlog:disable \
  -cp "$CLASSPATH_ALL" \
  io.pgbloat.bench.NotebookCost "$1" "$2" "$3" "${4:-3000}" "${5:-5}"
