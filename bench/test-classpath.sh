#!/usr/bin/env bash
# Builds the project's main and test classes (src/bench's compile with the tests, into
# target/test-classes) and prints their class path with every test dependency: what the bench/
# scripts that run a benchmark class without Spark's launcher need.
#
# usage: bench/test-classpath.sh      (prints the class path on standard output, nothing else)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$HERE"
mvn -q -B test-compile >&2
mvn -q -B dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt >&2
echo "$HERE/target/classes:$HERE/target/test-classes:$(cat target/test-classpath.txt)"
