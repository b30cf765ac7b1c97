package io.pgbloat.report;

import io.pgbloat.stats.Estimate;
import io.pgbloat.stats.RelationFigures;
import java.util.List;

/**
 * Sums of estimates, with a standard error and interval, for the HTML report's totals.
 *
 * <p>For independent terms the variances add: SE(ΣŶ) = sqrt(Σ SE(Ŷ_i)²). Each term's interval
 * was drawn with its own quantile (Student's t at its own degrees of freedom, see
 * StratifiedEstimator), recovered here as k_i = (high_i − value_i) / SE_i from the upper end,
 * which is never floored. The sum's half-width is sqrt(Σ (k_i·SE_i)²), floored at 0 below as
 * every total here is: for one term it gives that term's own interval back, and for many it
 * is at least as wide as the normal-quantile interval of the sum would be (each k_i ≥ 1.96),
 * so it errs on the wide side.
 *
 * <p>Dead and free bytes of one relation come from the same sampled pages and are not
 * independent; their covariance is not kept (the partial sums hold Σy² per measure, not the
 * cross products Σy_dead·y_free), so their sum is treated as if they were. Since
 * |cov| ≤ SE_dead·SE_free, the true SE lies between |SE_dead − SE_free| and
 * SE_dead + SE_free; the report says so in a footnote. Different relations are sampled
 * independently, so their sums are exact in this respect.
 */
final class EstimateSum {
  private EstimateSum() {}

  /** Dead plus free bytes of one relation: what it wastes (see the class comment on covariance). */
  static Estimate wastedBytes(RelationFigures f) {
    return of(List.of(f.deadTupleLen(), f.freeSpace()));
  }

  /** The sum of estimates taken as independent. */
  static Estimate of(List<Estimate> terms) {
    double value = 0;
    double variance = 0;
    double halfWidthSquared = 0;
    for (Estimate e : terms) {
      value += e.value();
      if (e.isExact()) {
        continue; // known exactly: adds its value and nothing to the error
      }
      variance += e.standardError() * e.standardError();
      double halfWidth = e.high() - e.value();
      halfWidthSquared += halfWidth * halfWidth;
    }
    if (variance == 0) {
      return Estimate.exact(value);
    }
    double halfWidth = Math.sqrt(halfWidthSquared);
    return new Estimate(value, Math.sqrt(variance), Math.max(0.0, value - halfWidth), value + halfWidth);
  }
}
