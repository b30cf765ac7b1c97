#!/usr/bin/env bash
# A Java notebook on pgbloat-spark: jshell with the tool, an embedded Spark and the JVM flags
# Spark needs, so spark.read.format("pgbloat") works at the prompt (see docs/spark-and-notebooks.md).
# usage: scripts/jshell.sh [FILE.jsh ...]
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$HERE/submit.sh" --help >/dev/null   # builds target/pgbloat-spark.jar and target/lib when needed
CP="$HERE/target/pgbloat-spark.jar$(printf ':%s' "$HERE"/target/lib/*.jar)"
OPENS=()
for pkg in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util java.util.concurrent \
    java.util.concurrent.atomic sun.nio.ch sun.nio.cs sun.security.action sun.util.calendar; do
  OPENS+=("-R--add-opens=java.base/$pkg=ALL-UNNAMED")
done
export SPARK_LOCAL_IP=${SPARK_LOCAL_IP:-127.0.0.1}
exec jshell --class-path "$CP" "${OPENS[@]}" -R-Dlog4j2.configurationFile="$HERE/conf/log4j2.properties" "$@"
