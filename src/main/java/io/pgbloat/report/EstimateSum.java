package io.pgbloat.report;

import io.pgbloat.stats.Estimate;
import io.pgbloat.stats.RelationFigures;
import java.util.List;

/**
 * Dead plus free bytes of one relation, what it wastes, as one estimate, for the HTML report.
 *
 * <p>Dead and free bytes of one relation come from the same sampled pages and are not
 * independent; their covariance is not kept (the partial sums hold Σy² per measure, not the
 * cross products Σy_dead·y_free), so their sum is taken as if they were
 * ({@link Estimate#sum}). Since |cov| ≤ SE_dead·SE_free, the true SE lies between
 * |SE_dead − SE_free| and SE_dead + SE_free; the report says so in a footnote. Different
 * relations are sampled independently, so sums over them are exact in this respect.
 */
final class EstimateSum {
  private EstimateSum() {}

  /** Dead plus free bytes of one relation: what it wastes (see the class comment on covariance). */
  static Estimate wastedBytes(RelationFigures f) {
    return Estimate.sum(List.of(f.deadTupleLen(), f.freeSpace()));
  }
}
