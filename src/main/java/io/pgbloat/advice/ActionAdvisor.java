package io.pgbloat.advice;

import io.pgbloat.catalog.Relation;
import io.pgbloat.figures.RelationFigures;
import io.pgbloat.page.PageHeader;
import io.pgbloat.stats.Estimate;
import java.util.Locale;

/**
 * What to do about a relation, decided from its figures and their 95 % intervals, never from a
 * point estimate alone: an action when the whole interval passes the thresholds, "sample more"
 * when it straddles them. A rewrite first (it removes the dead tuples too), then a VACUUM;
 * exact figures (every block read) have no interval to straddle.
 */
public final class ActionAdvisor {
  private ActionAdvisor() {}

  /**
   * The advice for a relation with {@code figures}, a TOAST table of {@code toastOf} if that is
   * not empty, against {@code thresholds}.
   */
  public static Advice advise(RelationFigures figures, String toastOf, ActionThresholds thresholds) {
    Estimate reclaimable = figures.reclaimableBytes();
    Estimate reclaimablePercent = figures.reclaimablePercent();
    Estimate dead = figures.deadTupleLen();
    Estimate deadPercent = figures.deadTuplePercent();
    if (!reclaimable.isKnown() || !dead.isKnown()) {
      return new Advice(Action.NONE, "no estimate (bad pages or files): see the findings", 0);
    }
    if (figures.tableLen() < thresholds.minWastedBytes()) {
      return new Advice(Action.NONE, "smaller than " + size(thresholds.minWastedBytes()) + ": nothing to act on", 0);
    }
    if (passes(thresholds, reclaimable.low(), reclaimablePercent.low())) {
      long needs = Math.max(0, Math.round(figures.tableLen() - reclaimable.low()));
      String what = toastOf.isEmpty() ? "VACUUM FULL, CLUSTER or pg_repack" : "a VACUUM FULL of " + toastOf;
      return new Advice(Action.REWRITE, what + " gives back " + estimated(reclaimable) + " ("
          + percent(reclaimablePercent.value()) + " of its size); while it runs it needs up to " + size(needs)
          + " of free disk for the new copy, plus its indexes rebuilt (the table's total counts them too)", needs);
    }
    boolean rewriteMayPay = passes(thresholds, reclaimable.high(), reclaimablePercent.high());
    if (passes(thresholds, dead.low(), deadPercent.low())) {
      return new Advice(Action.VACUUM, "VACUUM makes " + estimated(dead) + " of dead tuples reusable ("
          + percent(deadPercent.value()) + " of its size); the file keeps its size"
          + (rewriteMayPay ? "; a rewrite may pay too (reclaimable " + estimated(reclaimable)
              + " straddles " + limits(thresholds) + "): a larger sample decides" : ""), 0);
    }
    if (rewriteMayPay || passes(thresholds, dead.high(), deadPercent.high())) {
      return new Advice(Action.SAMPLE_MORE, "the 95 % interval straddles " + limits(thresholds) + " (reclaimable "
          + estimated(reclaimable) + ", dead " + estimated(dead) + "): a larger sample decides", 0);
    }
    return new Advice(Action.NONE, "below " + limits(thresholds) + ": reclaimable " + estimated(reclaimable) + ", dead "
        + estimated(dead), 0);
  }

  /**
   * The advice for an index: a REINDEX when what it gives back passes both thresholds over its
   * whole interval, "sample more" when the interval straddles them, else none (and none where the
   * rebuild is not modelled: GiST, SP-GiST, or pages not read).
   *
   * @param blocks the index's length in blocks
   * @param reclaimable what a REINDEX would give back, or null where it is not estimated
   */
  public static Advice adviseIndex(Relation index, long blocks, Estimate reclaimable, ActionThresholds thresholds) {
    long size = blocks * PageHeader.BLCKSZ;
    if (reclaimable == null || !reclaimable.isKnown()) {
      return new Advice(Action.NONE, "what a REINDEX would give back is not estimated for this index", 0);
    }
    if (size < thresholds.minWastedBytes()) {
      return new Advice(Action.NONE, "smaller than " + size(thresholds.minWastedBytes()) + ": nothing to act on", 0);
    }
    double low = 100.0 * reclaimable.low() / size;
    double high = 100.0 * reclaimable.high() / size;
    if (passes(thresholds, reclaimable.low(), low)) {
      String command = index.isMadeByInitdb() ? "REINDEX INDEX (a system catalog's: not CONCURRENTLY)"
          : "REINDEX INDEX CONCURRENTLY";
      return new Advice(Action.REINDEX, command + " gives back " + estimated(reclaimable) + " ("
          + percent(100.0 * reclaimable.value() / size) + " of its size)", 0);
    }
    if (passes(thresholds, reclaimable.high(), high)) {
      return new Advice(Action.SAMPLE_MORE, "the 95 % interval of what a REINDEX gives back (" + estimated(reclaimable)
          + ") straddles " + limits(thresholds) + ": a larger sample decides", 0);
    }
    return new Advice(Action.NONE, "below " + limits(thresholds) + ": a REINDEX gives back " + estimated(reclaimable),
        0);
  }

  /** Whether {@code bytes}, being {@code percent} % of the relation, passes both thresholds. */
  private static boolean passes(ActionThresholds t, double bytes, double percent) {
    return bytes >= t.minWastedBytes() && percent >= t.minPercent();
  }

  /** A byte figure, with its interval when it has one. */
  private static String estimated(Estimate e) {
    return e.low() == e.high() ? size(e.value())
        : size(e.value()) + " (95 %: " + size(e.low()) + " to " + size(e.high()) + ")";
  }

  private static String percent(double p) {
    return String.format(Locale.ROOT, "%.1f %%", p);
  }

  private static String size(double bytes) {
    return ByteSize.pretty(bytes);
  }

  /** "64 MB and 20.0 %": the thresholds as the reasons say them. */
  private static String limits(ActionThresholds t) {
    return size(t.minWastedBytes()) + " and " + percent(t.minPercent());
  }

}
