package io.pgbloat.rebuild;

import io.pgbloat.page.PageHeader;
import io.pgbloat.stats.Estimate;
import java.util.function.ToDoubleFunction;

/**
 * The estimate of what a rebuild gives back, from a model that counts whole pages over
 * estimated totals. The value is the model at the totals' estimates. Each total read in part
 * moves the model on its own: the model at each end of that total's interval, the others at
 * their estimates; the moves down, and up, add in quadrature (the totals come from the same
 * sampled pages but are taken as independent, which errs wide). A model of whole pages is flat
 * between its steps, so a total whose interval lies within one step moves it not at all, while
 * the truth can be a step away: where any total was read in part, each end is at least a page
 * from the value. The standard error is the half-width over the largest quantile the totals'
 * intervals were drawn with ((high − value) / SE, as {@link Estimate#sum} recovers them).
 */
final class PageModelEstimate {
  /** The normal 97.5 % quantile, for totals whose intervals do not say theirs. */
  private static final double NORMAL_95 = 1.959964;

  private PageModelEstimate() {}

  /** {@code model} (bytes) of the totals' values, with the interval and SE the class describes. */
  static Estimate of(ToDoubleFunction<double[]> model, Estimate... totals) {
    double[] x = new double[totals.length];
    boolean exact = true;
    for (int i = 0; i < totals.length; i++) {
      if (!totals[i].isKnown()) {
        return Estimate.unknown();
      }
      x[i] = totals[i].value();
      exact &= totals[i].isExact();
    }
    double value = model.applyAsDouble(x);
    if (exact) {
      return Estimate.exact(value);
    }
    double down = 0;
    double up = 0;
    double quantile = 0;
    for (int i = 0; i < totals.length; i++) {
      Estimate t = totals[i];
      if (t.isExact()) {
        continue;
      }
      x[i] = t.low();
      double atLow = model.applyAsDouble(x);
      x[i] = Double.isFinite(t.high()) ? t.high() : t.value();
      double atHigh = model.applyAsDouble(x);
      x[i] = t.value();
      double fewer = Math.max(0, value - Math.min(atLow, atHigh));
      double more = Math.max(0, Math.max(atLow, atHigh) - value);
      down += fewer * fewer;
      up += more * more;
      if (t.standardError() > 0) {
        quantile = Math.max(quantile, (t.high() - t.value()) / t.standardError());
      }
    }
    double below = Math.max(PageHeader.BLCKSZ, Math.sqrt(down));
    double above = Math.max(PageHeader.BLCKSZ, Math.sqrt(up));
    double se = Math.max(below, above) / (quantile > 0 && Double.isFinite(quantile) ? quantile : NORMAL_95);
    return new Estimate(value, se, value - below, value + above);
  }
}
