#!/usr/bin/env bash
# Runs N generated workloads (it/DifferentialSeedsTest's seeds FIRST .. FIRST+N-1, each on a real
# server of the major and in the copy form the seed draws) and writes what they found to
# docs/differential.md: for each major and copy form the seeds run, the relations compared and
# the differences from pgstattuple, pgstatindex, pgstathashindex and pgstatginindex, then every
# seed with a difference and the command that rebuilds it.
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
  docs=docs/differential.md
fi
out=target/pgbloat-it/differential
rm -rf "$out"
# A seed with a difference fails its test; the run goes on and the table counts it.
mvn -B -q test -Dtest=DifferentialSeedsTest -Ddifferential.seeds="$range" -Dsurefire.failIfNoSpecifiedTests=false \
  >target/differential.log 2>&1 || true
summaries=$(cat "$out"/seed-*/summary.csv 2>/dev/null | sort -t, -k1,1n || true)
ran=$(printf '%s\n' "$summaries" | grep -c . || true)
echo "bench/differential.sh: $ran seed(s) of $range ran; the log is target/differential.log" >&2
[[ -n $docs ]] || { printf '%s\n' "$summaries"; cat "$out"/seed-*/differences.txt; exit 0; }
{
  echo "# Generated workloads against real servers"
  echo
  echo "Made by \`bench/differential.sh $n $first\` on $(date -u +%Y-%m-%d): seeds $range, $ran of them ran"
  echo "(a seed whose server could not start does not run). Each seed draws its tables, loads and"
  echo "indexes (\`src/test/java/io/pgbloat/testing/workload/\`); the major and the copy form go"
  echo "round in turn. A full scan with \`--indexes\` of the seed's copy is held to that server's"
  echo "\`pgstattuple()\` for every table, TOAST table and materialized view of every database,"
  echo "and to \`pgstatindex()\`, \`pgstathashindex()\` and \`pgstatginindex()\` with the size of each"
  echo "btree, hash and GIN index of the workload: every figure must be equal."
  echo
  echo "| major | copy form | seeds | tables compared | indexes compared | differences |"
  echo "|---|---|---:|---:|---:|---:|"
  printf '%s\n' "$summaries" | awk -F, 'NF { k = $2 "|" $3; s[k]++; t[k] += $4; i[k] += $5; d[k] += $6 }
    END { for (k in s) { split(k, p, "|"); printf "| %s | %s | %d | %d | %d | %d |\n", p[1], p[2], s[k], t[k], i[k], d[k] } }' | sort -t'|' -k2,2n -k3,3
  echo
  failing=$(printf '%s\n' "$summaries" | awk -F, 'NF && $6 > 0 { print $1 }')
  if [[ -z $failing ]]; then
    echo "No seed had a difference."
  else
    echo "Seeds with a difference (rebuild one with \`bench/differential.sh --seed S\`):"
    echo
    for s in $failing; do
      echo "- seed $s: $(head -3 "$out/seed-$s/differences.txt" | paste -sd';' -)"
    done
  fi
} >"$docs"
echo "bench/differential.sh: wrote $docs" >&2
