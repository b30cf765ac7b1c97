#!/usr/bin/env bash
# Interval coverage as a user meets it: the tool run SEEDS times (different --seed) with a
# small --sample-blocks on a ground-truth cluster (made by groundtruth/make-cluster.sh),
# each 95 % interval checked against truth.csv. Prints coverage per relation and measure
# for relations sampled (larger than the sample), and overall.
#
# usage: bench/coverage-on-cluster.sh OUTDIR [SAMPLE_BLOCKS=100] [SEEDS=20]
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUTDIR=${1:?usage: bench/coverage-on-cluster.sh OUTDIR [SAMPLE_BLOCKS] [SEEDS]}
SAMPLE=${2:-100}
SEEDS=${3:-20}
RUNS=$HERE/bench/out/coverage
mkdir -p "$RUNS"
for seed in $(seq 1 "$SEEDS"); do
  "$HERE/submit.sh" analyze --data-dir "$OUTDIR/pgdata" --sample-blocks "$SAMPLE" --seed "$seed" \
    --format csv --output "$RUNS/seed-$seed.csv" 2>"$RUNS/seed-$seed.err" || { cat "$RUNS/seed-$seed.err" >&2; exit 1; }
done
python3 - "$OUTDIR/truth.csv" "$RUNS" "$SEEDS" "$SAMPLE" <<'PY' | tee "$HERE/bench/out/coverage.txt"
import csv, sys
truth_file, runs, seeds, sample = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
truth = {(r["database"], r["schema"], r["relname"]): r for r in csv.DictReader(open(truth_file, newline=""))}
measures = ["tuple_count", "dead_tuple_len", "free_space"]
hits, counts = {}, {}
for seed in range(1, seeds + 1):
    for r in csv.DictReader(open(f"{runs}/seed-{seed}.csv", newline="")):
        key = (r["database"], r["schema"], r["relname"])
        if key not in truth or int(r["blocks"]) <= 2 * sample:
            continue
        for m in measures:
            t = int(truth[key][m])
            ok = int(r[m + "_ci_low"]) <= t <= int(r[m + "_ci_high"])
            hits[(key, m)] = hits.get((key, m), 0) + ok
            counts[(key, m)] = counts.get((key, m), 0) + 1
print(f"95 % interval coverage, --sample-blocks {sample}, {seeds} seeds, relations over {2 * sample} blocks:")
total_hits = total = 0
for (key, m) in sorted(hits):
    h, c = hits[(key, m)], counts[(key, m)]
    total_hits += h; total += c
    print(f"  {key[0]}:{key[1]}.{key[2]:<20} {m:<16} {100 * h / c:6.1f} %  ({h}/{c})")
print(f"overall {100 * total_hits / total:.1f} % ({total_hits}/{total})")
PY
