package io.pgbloat.stats;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The one estimator of a total over a relation's pages from a stratified sample of them, for
 * tables, btree indexes and every other index method alike (Cochran, Sampling Techniques,
 * 3rd ed., §5.2 and §5A.8):
 *
 * <pre>
 *   Ŷ = Σ_h N_h ȳ_h          Var(Ŷ) = Σ_h N_h² (1 − n_h/N_h) s_h² / n_h
 * </pre>
 *
 * summed over strata h ({@link StratumSample}) with N_h pages of which n_h good pages were read.
 * A stratum read whole contributes its exact sum and no variance (bad pages in it add nothing,
 * as in a full scan: the sum is then a lower bound, which the figures built on it say). The
 * interval is Ŷ ± t·SE with Student's t at the Satterthwaite degrees of freedom (Cochran eq.
 * 5.16), clipped to what the total can be: at least what the pages read hold (a page holds
 * none of a measure or some, never less), at most that and the most the pages not read can hold.
 *
 * <p>A sampled stratum of fewer than two good pages tells nothing of its spread: the total keeps
 * its point value (none when the stratum gave no good page at all) and its interval is all the
 * total can be, from what was read up, with no standard error. A ratio of two totals ({@link #ratio}) follows the same
 * rule.
 *
 * <p>Two guards keep the interval honest on the page distributions relations really have, where
 * most pages hold the same figure and a few differ:
 *
 * <ul>
 *   <li>s_h² is taken as if the sample also held two pseudo-pages at its own smallest and
 *       largest value, {@code (Σ(y − ȳ)² + (min − ȳ)² + (max − ȳ)²) / (n + 1)}: in the manner
 *       of Agresti and Coull's added pseudo-counts (Am. Stat. 52, 1998), it keeps a sample that
 *       drew only one or two of the rare pages from looking almost certain.
 *   <li>A sample whose pages all agree (s² = 0) from a stratum not read whole still has a
 *       variance: that of one unseen page in n + 2 differing by one unit of the measure (one
 *       tuple, page or item; a share of a page for bytes), so it never claims certainty it lacks.
 * </ul>
 *
 * The docs' accuracy notes measure how often the intervals hold the truth.
 */
public final class StratifiedEstimator {
  /** The fewest good pages of a sampled stratum from which its spread can be estimated. */
  private static final long PAGES_FOR_A_SPREAD = 2;

  private final double confidence;
  /** Student's t quantile by degrees of freedom: one index's measures share theirs. */
  private final Map<Double, Double> quantiles = new ConcurrentHashMap<>();

  /** @param confidence the interval's confidence, e.g. 0.95 */
  public StratifiedEstimator(double confidence) {
    this.confidence = confidence;
  }

  /**
   * A table's total of {@code measure}.
   *
   * @param population N_h per stratum (by ordinal)
   * @param sums what was read
   */
  public Estimate total(Measure measure, long[] population, StratifiedSums sums) {
    return total(sums.samples(measure, population), sums.guardUnit(measure), Double.POSITIVE_INFINITY);
  }

  /**
   * The total over {@code strata}, {@code unit} the guard's one-unit step and
   * {@code mostPerPage} the most one page can hold (infinite where nothing bounds it).
   */
  public Estimate total(List<StratumSample> strata, double unit, double mostPerPage) {
    double value = 0;
    double least = 0;
    double most = 0;
    double variance = 0;
    double dfDenominator = 0;
    long fewestDf = Long.MAX_VALUE;
    long allDf = 0;
    boolean spreadKnown = true;
    for (StratumSample s : strata) {
      if (s.isReadWhole()) {
        value += s.sum(); // read whole: exact
        least += s.sum();
        most += s.sum();
        continue;
      }
      long n = s.pages();
      long bigN = s.population();
      value += bigN * s.mean();
      least += s.sum();
      most += s.sum() + (bigN > n ? (bigN - n) * mostPerPage : 0);
      if (n > 0 && s.knownZero() && s.max() == 0) {
        continue; // a structural zero, not a sampled one
      }
      if (!knowsSpread(n)) {
        spreadKnown = false;
        continue;
      }
      double g = (double) bigN * bigN * (1.0 - (double) n / bigN) * guardedVariance(s, unit) / n;
      variance += g;
      dfDenominator += g * g / (n - 1);
      fewestDf = Math.min(fewestDf, n - 1);
      allDf += n - 1;
    }
    if (!spreadKnown) {
      return spreadUnknown(value, least, most);
    }
    if (variance <= 0) {
      return Estimate.exact(value);
    }
    double se = Math.sqrt(variance);
    // Satterthwaite's df lies between the fewest of one stratum and the sum of all: clamped to
    // them against rounding, so that one sampled stratum has its n - 1 exactly
    double df = Math.min(allDf, Math.max(fewestDf, variance * variance / dfDenominator));
    double t = quantile(df);
    return new Estimate(value, se, Math.max(least, value - t * se), Math.min(most, value + t * se));
  }

  /**
   * R̂ = Ŷ / X̂, the ratio of y's total to x's over the same pages: {@code exactY} and
   * {@code exactX} over the parts read whole, and {@code y} and {@code x} over one sampled part,
   * x counting the pages y is found on (leaves) and X̂ their {@code scale} each (a leaf's
   * max_avail, or one): the denominator is scale·x, so Σ(y·scale·x) = scale·Σy and
   * Σ(scale·x)² = scale²·Σx. Cochran §6.3-6.4:
   *
   * <pre>
   *   Var(R̂) ≈ N² (1 − n/N) s_d² / n / X̂²,   d = y − R̂x,  s_d² their variance about their mean
   * </pre>
   *
   * computed in exact integers; a sample whose d all agree is guarded as totals are, {@code unit}
   * the step in y. Student's t at n − 1 degrees of freedom; the interval within [0, most]. A
   * ratio whose sample holds no x has no value, and its interval is [0, most].
   */
  public Estimate ratio(StratumSample y, StratumSample x, long exactY, long exactX, long scale, double unit, double most) {
    if (y.isReadWhole()) {
      long num = exactY + y.sum();
      double den = (double) scale * (exactX + x.sum());
      return Estimate.exact(den == 0 ? Double.NaN : num / den);
    }
    BigInteger n = BigInteger.valueOf(y.pages());
    BigInteger bigN = BigInteger.valueOf(y.population());
    // R̂ = p / q, Ŷ = p / n and X̂ = q / n
    BigInteger p = n.multiply(BigInteger.valueOf(exactY)).add(bigN.multiply(BigInteger.valueOf(y.sum())));
    BigInteger q = n.multiply(BigInteger.valueOf(exactX)).add(bigN.multiply(BigInteger.valueOf(x.sum())))
        .multiply(BigInteger.valueOf(scale));
    double value = q.signum() == 0 ? Double.NaN : p.doubleValue() / q.doubleValue();
    if (!knowsSpread(y.pages()) || q.signum() == 0) {
      return spreadUnknown(value, 0, most);
    }
    double residuals = residualSquares(y, x, p, q, scale) / (y.pages() - 1);
    if (residuals <= 0) {
      residuals = unit * unit / (y.pages() + 2);
    }
    double fpc = 1.0 - (double) y.pages() / y.population();
    double se = y.population() * Math.sqrt(fpc * residuals / y.pages()) / (q.doubleValue() / y.pages());
    double t = quantile(y.pages() - 1);
    return new Estimate(value, se, Math.max(0, value - t * se), Math.min(most, value + t * se));
  }

  /**
   * Σ(d − d̄)² over the sample, d = y − (p/q)·x' with x' = scale·x: n·q²·Σ(d − d̄)² =
   * n·(q²Σy² − 2pq·Σx'y + p²·Σx'²) − (q·Σy − p·Σx')², exact in big integers.
   */
  private static double residualSquares(StratumSample y, StratumSample x, BigInteger p, BigInteger q, long scale) {
    BigInteger n = BigInteger.valueOf(y.pages());
    BigInteger sumY = BigInteger.valueOf(y.sum());
    BigInteger sumX = BigInteger.valueOf(x.sum()).multiply(BigInteger.valueOf(scale));
    BigInteger sumXY = sumY.multiply(BigInteger.valueOf(scale));
    BigInteger sumX2 = sumX.multiply(BigInteger.valueOf(scale));
    BigInteger squares = q.pow(2).multiply(BigInteger.valueOf(y.sumOfSquares()))
        .subtract(BigInteger.TWO.multiply(p).multiply(q).multiply(sumXY))
        .add(p.pow(2).multiply(sumX2));
    BigInteger deviation = q.multiply(sumY).subtract(p.multiply(sumX));
    BigInteger numerator = n.multiply(squares).subtract(deviation.pow(2));
    return numerator.doubleValue() / n.multiply(q.pow(2)).doubleValue();
  }

  /** Whether a sampled stratum of {@code pages} good pages says anything of its spread. */
  static boolean knowsSpread(long pages) {
    return pages >= PAGES_FOR_A_SPREAD;
  }

  /** What is known without a spread: the point {@code value} and every value from {@code least} to {@code most}. */
  private static Estimate spreadUnknown(double value, double least, double most) {
    return new Estimate(value, Double.NaN, least, most);
  }

  /** Student's t quantile of the interval's confidence at {@code df} degrees of freedom. */
  private double quantile(double df) {
    return quantiles.computeIfAbsent(df,
        d -> new TDistribution(null, d).inverseCumulativeProbability(0.5 + confidence / 2));
  }

  /** s_h² with the two guards of the class comment. */
  static double guardedVariance(StratumSample s, double unit) {
    long n = s.pages();
    double mean = s.mean();
    double low = s.min() - mean;
    double high = s.max() - mean;
    double guarded = (s.squaredDeviations() + low * low + high * high) / (n + 1);
    if (guarded > 0) {
      return guarded;
    }
    return unit * unit / (n + 2);
  }
}
