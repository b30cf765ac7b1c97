#!/usr/bin/env bash
# The measurements behind the default sample size and the visibility-map strata: relative
# standard error of dead and free bytes against the sample size, and the variance with and
# without visibility-map strata, on the ground-truth tables' every page (the fixture in
# src/test/resources/pages, exported from clusters made by PostgreSQL 15). Seconds; no server.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mvn -q -B -DskipTests package test-compile >&2
mkdir -p bench/out
java -cp "target/classes:target/test-classes:$(printf '%s:' target/lib/*.jar)" \
  -Dlog4j2.configurationFile=conf/log4j2.properties io.pgbloat.bench.SampleSizeStudy | tee bench/out/sample-size.txt
