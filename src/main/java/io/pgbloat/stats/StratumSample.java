package io.pgbloat.stats;

import java.math.BigInteger;

/**
 * One stratum of one measure as {@link StratifiedEstimator} takes it: N_h pages, of which
 * {@code pagesRead} were read, and over the n_h good ones Σy, Σy², min y and max y, all exact.
 * A stratum read whole ({@code pagesRead ≥ N_h}) gives its sum exactly and no variance.
 *
 * @param population N_h
 * @param pagesRead pages read, good and bad
 * @param pages n_h, the good ones
 * @param sum Σy
 * @param sumOfSquares Σy²
 * @param min the smallest y (undefined when n_h = 0)
 * @param max the largest y (undefined when n_h = 0)
 * @param knownZero the stratum's pages are known to hold none of the measure (all-visible pages
 *     hold no dead tuple): a sample that finds none is no sampled zero but a structural one
 */
public record StratumSample(long population, long pagesRead, long pages, long sum, long sumOfSquares, long min, long max,
    boolean knownZero) {

  /** A part read whole whose total is {@code sum}. */
  public static StratumSample exact(long sum) {
    return new StratumSample(0, 0, 0, sum, 0, 0, 0, false);
  }

  boolean isReadWhole() {
    return pagesRead >= population;
  }

  /** ȳ, the mean of the good pages read (NaN when none was). */
  double mean() {
    return (double) sum / pages;
  }

  /** Σ(y − ȳ)² = (n·Σy² − (Σy)²) / n, the subtraction exact in big integers: no cancellation error creeps in. */
  double squaredDeviations() {
    BigInteger numerator = BigInteger.valueOf(pages).multiply(BigInteger.valueOf(sumOfSquares))
        .subtract(BigInteger.valueOf(sum).pow(2));
    return numerator.doubleValue() / pages;
  }

  /** s² = Σ(y − ȳ)² / (n − 1), for a stratum whose spread is known ({@link StratifiedEstimator#knowsSpread}). */
  double sampleVariance() {
    return squaredDeviations() / (pages - 1);
  }
}
