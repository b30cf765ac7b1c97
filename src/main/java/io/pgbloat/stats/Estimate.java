package io.pgbloat.stats;

import java.io.Serializable;

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

  public boolean isExact() {
    return standardError == 0.0;
  }
}
