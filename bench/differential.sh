#!/usr/bin/env bash
# Runs N generated workloads (it/DifferentialSeedsTest's seeds FIRST .. FIRST+N-1, each on a real
# server of the major and in the copy form the seed draws) and writes what they found to
# docs/differential-results.md (bench/DifferentialTable): exact differences by major and copy
# form, the sampled intervals' coverage, reclaimable_bytes against real rebuilds, and every seed
# that missed with the command that rebuilds it. docs/differential.md says what is compared.
#
# usage: bench/differential.sh N [FIRST]     (FIRST defaults to 1)
#        bench/differential.sh --seed S      (one seed, nothing written to docs/)
#        bench/differential.sh --seed S --print-sql   (only print seed S's script)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$HERE"
if [[ ${1:-} == --seed && ${3:-} == --print-sql ]]; then
  exec java -cp "$(bench/test-classpath.sh)" io.pgbloat.bench.WorkloadSql "$2"
fi
if [[ ${1:-} == --seed ]]; then
  range="$2-$2"
  docs=""
else
  n=${1:?usage: bench/differential.sh N [FIRST] | --seed S}
  first=${2:-1}
  range="$first-$((first + n - 1))"
  docs=docs/differential-results.md
fi
out=target/pgbloat-it/differential
rm -rf "$out"
mkdir -p target
# A seed with a difference fails its test; the run goes on and the table counts it.
mvn -B -q test -Dtest=DifferentialSeedsTest -Ddifferential.seeds="$range" -Dsurefire.failIfNoSpecifiedTests=false \
  >target/differential.log 2>&1 || true
summaries=$(cat "$out"/seed-*/summary.csv 2>/dev/null | sort -t, -k1,1n || true)
ran=$(printf '%s\n' "$summaries" | grep -c . || true)
echo "bench/differential.sh: $ran seed(s) of $range ran; the log is target/differential.log" >&2
[[ -n $docs ]] || { printf '%s\n' "$summaries"; cat "$out"/seed-*/differences.txt; grep -h ",missed$" "$out"/seed-*/checks.csv || true; exit 0; }
java -cp "$(bench/test-classpath.sh)" io.pgbloat.bench.DifferentialTable "$out" "bench/differential.sh $n $first" >"$docs"
echo "bench/differential.sh: wrote $docs" >&2
