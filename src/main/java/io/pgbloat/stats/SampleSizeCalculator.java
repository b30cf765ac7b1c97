package io.pgbloat.stats;

import io.pgbloat.sample.Stratum;
import java.util.List;

/**
 * How many blocks a relation needs for a target relative standard error, from a pilot
 * sample. With proportional allocation over the sampled strata (N_s blocks in all, pooled
 * within-stratum variance S_w² = Σ_h (N_h/N_s) s_h²), Var(Ŷ) = N_s² (1 − n/N_s) S_w² / n, so
 * RSE(Ŷ) ≤ R needs n = N_s² S_w² / (R² Ŷ² + N_s S_w²) (Cochran §4.6 and §5.5). The largest
 * need over the measures counts; a measure the pilot found to be zero sets no need (its
 * relative error is undefined).
 */
public final class SampleSizeCalculator {
  private SampleSizeCalculator() {}

  /**
   * Blocks to read in all (take-all strata included) for RSE {@code target} on every one of
   * {@code measures}, at least what the pilot read, at most the relation.
   */
  public static long blocksFor(double target, List<Measure> measures, long[] population, long[] planned,
      StratifiedSums pilot, StratifiedEstimator estimator) {
    long takeAll = population[Stratum.TAKE_ALL.ordinal()];
    long sampledPopulation = 0;
    for (Stratum h : Stratum.values()) {
      if (h != Stratum.TAKE_ALL) {
        sampledPopulation += population[h.ordinal()];
      }
    }
    long pilotBlocks = 0;
    for (long n : planned) {
      pilotBlocks += n;
    }
    long need = pilotBlocks;
    for (Measure m : measures) {
      double total = estimator.total(m, population, pilot).value();
      if (total <= 0 || sampledPopulation == 0) {
        continue;
      }
      double pooled = 0;
      for (Stratum h : Stratum.values()) {
        PartialSums s = pilot.of(h);
        if (h == Stratum.TAKE_ALL || !StratifiedEstimator.knowsSpread(s.pages())) {
          continue;
        }
        pooled += (double) population[h.ordinal()] / sampledPopulation
            * s.sample(m, population[h.ordinal()], false).sampleVariance();
      }
      double n = (double) sampledPopulation * sampledPopulation * pooled
          / (target * target * total * total + sampledPopulation * pooled);
      need = Math.max(need, takeAll + (long) Math.ceil(n));
    }
    return Math.min(need, takeAll + sampledPopulation);
  }
}
