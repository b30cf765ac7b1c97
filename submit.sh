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
if needs_build; then
  echo "submit.sh: building pgbloat-spark (mvn package, tests skipped)..." >&2
  (cd "$HERE" && mvn -q -B -DskipTests package) >&2
fi

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
export SPARK_LOCAL_IP=${SPARK_LOCAL_IP:-127.0.0.1}

if [[ -n ${SPARK_HOME:-} && -x $SPARK_HOME/bin/spark-submit ]]; then
  exec "$SPARK_HOME/bin/spark-submit" --class io.pgbloat.cli.Main \
    --driver-java-options "${JAVA_OPENS[*]} -Dlog4j2.configurationFile=$CONF/log4j2.properties" \
    "$JAR" "$@"
fi
exec java ${PGBLOAT_JAVA_OPTS:-} "${JAVA_OPENS[@]}" -Dlog4j2.configurationFile="$CONF/log4j2.properties" \
  -cp "$JAR:$LIB/*" io.pgbloat.cli.Main "$@"
