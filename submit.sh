#!/usr/bin/env bash
# Runs pgbloat-spark. Builds the project first when it is not built (or sources changed).
# With SPARK_HOME set, submits through $SPARK_HOME/bin/spark-submit; otherwise runs on an
# embedded Spark (local[*] unless --master says otherwise).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
JAR=$HERE/target/pgbloat-spark.jar
LIB=$HERE/target/lib
CONF=${PGBLOAT_CONF_DIR:-$HERE/conf}

needs_build() {
  [[ -f $JAR && -d $LIB ]] || return 0
  [[ -n $(find "$HERE/src/main" "$HERE/pom.xml" -newer "$JAR" -print -quit 2>/dev/null) ]]
}
# Class-data archive of the classes a run loads (docs/speed.md, "Start-up"). A JVM ignores, silently,
# an archive another JVM made, so it is named after the java that runs (its path and libjvm's
# time: another JDK, or the same one updated, makes its own).
JAVA_BIN=$(readlink -f "$(command -v java)")
JVM_ID=$(stat -c '%n %Y' "$JAVA_BIN" "$(dirname "$JAVA_BIN")"/../lib/server/libjvm.so 2>/dev/null | cksum | cut -d' ' -f1)
CDS=$HERE/target/pgbloat-$JVM_ID.jsa
if needs_build; then
  echo "submit.sh: building pgbloat-spark (mvn package, tests not built)..." >&2
  (cd "$HERE" && mvn -q -B -Dmaven.test.skip=true package) >&2
fi
[[ $CDS -nt $JAR ]] || rm -f "$HERE"/target/pgbloat*.jsa   # archives of an older build would be silently ignored

# Spark 4 on Java 17 needs these opens (from Spark's own launcher).
JAVA_OPENS=(
  --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/sun.nio.cs=ALL-UNNAMED
  --add-opens=java.base/sun.security.action=ALL-UNNAMED --add-opens=java.base/sun.util.calendar=ALL-UNNAMED
  -Djdk.reflect.useDirectMethodHandle=false -Dio.netty.tryReflectionSetAccessible=true
)
# A sampled run lasts seconds: the JIT stops at C1, since on two cores C2's compiles of Spark
# and of the page code cost more than its faster code saves (warm, 4 GB table: a 20000-block
# sample 2.90 s vs 3.91 s whole process). A full scan runs long enough for C2 to pay: one
# core counts 3.0 us a page with it, 5.5-6.4 us at C1 (bench/scan-cost.sh, 1 GB, warm).
# PGBLOAT_JAVA_OPTS, later on the command line, overrides either (-XX:TieredStopAtLevel=N).
JIT=(-XX:TieredStopAtLevel=1)
[[ " $* " != *" --full-scan "* ]] || JIT=()
export SPARK_LOCAL_IP=${SPARK_LOCAL_IP:-127.0.0.1}
export PGBLOAT_CONF_DIR=$CONF   # pgbloat.conf (tool defaults) and spark-defaults.conf

if [[ -n ${SPARK_HOME:-} && -x $SPARK_HOME/bin/spark-submit ]]; then
  exec "$SPARK_HOME/bin/spark-submit" --class io.pgbloat.cli.Main \
    --properties-file "$CONF/spark-defaults.conf" \
    --driver-java-options "${JIT[*]} ${JAVA_OPENS[*]} -Dlog4j2.configurationFile=$CONF/log4j2.properties" \
    --conf "spark.executor.extraJavaOptions=${JIT[*]} ${JAVA_OPENS[*]}" \
    "$JAR" "$@"
fi
CLASSPATH_LIST=$JAR$(printf ':%s' "$LIB"/*.jar)   # sorted, so the archive's class path always matches
JAVA=(java "${JIT[@]}" ${PGBLOAT_JAVA_OPTS:-} "${JAVA_OPENS[@]}" -Dlog4j2.configurationFile="$CONF/log4j2.properties" -Xlog:disable)
if [[ -f $CDS || " $* " == *" --help "* || $# -eq 0 ]]; then   # a help run loads too little to archive
  [[ -f $CDS ]] && JAVA+=(-XX:SharedArchiveFile="$CDS")
  exec "${JAVA[@]}" -cp "$CLASSPATH_LIST" io.pgbloat.cli.Main "$@"
fi
# First run after a build: also record the classes it loads, for the next runs' fast start.
status=0
"${JAVA[@]}" -XX:ArchiveClassesAtExit="$CDS.$$" -cp "$CLASSPATH_LIST" io.pgbloat.cli.Main "$@" || status=$?
mv -f "$CDS.$$" "$CDS" 2>/dev/null || true
exit $status
