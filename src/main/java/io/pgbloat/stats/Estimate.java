package io.pgbloat.stats;

import java.io.Serializable;
import java.util.List;

/**
 * An estimated total and its bounds: never one without the other. A full read gives a
 * standard error of 0 and the closed interval [value, value].
 *
 * @param value the estimate
 * @param standardError its standard error
 * @param low lower end of the confidence interval
 * @param high upper end of the confidence interval
 */
public record Estimate(double value, double standardError, double low, double high) implements Serializable {

  /** A value known exactly. */
  public static Estimate exact(double value) {
    return new Estimate(value, 0.0, value, value);
  }

  /**
   * A total nothing was read of (every sampled page of a part of the relation was bad, or its
   * file was gone): no value, no standard error, the interval [0, ∞).
   */
  public static Estimate unknown() {
    return new Estimate(Double.NaN, Double.NaN, 0.0, Double.POSITIVE_INFINITY);
  }

  /**
   * The sum of independent estimates (relations sampled independently: partitions, the
   * relations of a database). Their variances add: SE(ΣŶ) = sqrt(Σ SE(Ŷ_i)²). Each term's
   * interval was drawn with its own quantile (Student's t at its own degrees of freedom, see
   * StratifiedEstimator), recovered as k_i = (high_i − value_i) / SE_i from the upper end,
   * which is never floored; the sum's half-width is sqrt(Σ (k_i·SE_i)²), floored at 0 below
   * when no term can be negative (counts and bytes; reclaimable bytes can). For many terms it is
   * at least as wide as the normal-quantile interval of the sum (each k_i ≥ 1.96), so it errs on
   * the wide side. A term with no standard error but a range (a model's, over pages read in
   * full) adds its own reach on each side the same way. A term with no estimate makes the sum
   * {@link #unknown}.
   */
  public static Estimate sum(List<Estimate> terms) {
    double value = 0;
    double variance = 0;
    double lowSquared = 0;
    double highSquared = 0;
    boolean nonNegative = true;
    for (Estimate e : terms) {
      if (!e.isKnown()) {
        return unknown();
      }
      nonNegative &= e.low() >= 0;
      value += e.value();
      if (e.isExact()) {
        continue; // known exactly: adds its value and nothing to the error
      }
      variance += e.standardError() * e.standardError();
      // a sampled interval reaches down at least as far as up (its lower end may be floored; a
      // model's range may widen it further down); a model's range alone (no standard error) as
      // far as it does each way
      double above = e.high() - e.value();
      double below = e.standardError() > 0 ? Math.max(e.value() - e.low(), above) : e.value() - e.low();
      lowSquared += below * below;
      highSquared += above * above;
    }
    if (variance == 0 && lowSquared == 0 && highSquared == 0) {
      return exact(value);
    }
    double low = value - Math.sqrt(lowSquared);
    return new Estimate(value, Math.sqrt(variance), nonNegative ? Math.max(0.0, low) : low,
        value + Math.sqrt(highSquared));
  }

  /** Whether there is a value at all (see {@link #unknown}). */
  public boolean isKnown() {
    return !Double.isNaN(value);
  }

  /**
   * This estimate times {@code factor} over {@code divisor} (bytes to percent), computed as
   * pgstattuple computes its percentages, {@code 100.0 * len / table_len}, so that exact
   * figures round the same way.
   */
  public Estimate scaled(double factor, double divisor) {
    if (divisor == 0) {
      return exact(0.0); // an empty table: pgstattuple reports 0 %
    }
    if (!isKnown()) {
      return this;
    }
    return new Estimate(factor * value / divisor, factor * standardError / divisor,
        factor * low / divisor, factor * high / divisor);
  }

  /**
   * Whether the value is known exactly: no standard error and an interval of no width. A
   * model's range around a figure read in full (what a rebuild would give back, where the pages
   * cannot tell which of two cases holds) has no standard error and is no exact figure.
   */
  public boolean isExact() {
    return standardError == 0.0 && !(high > low);
  }
}
