package io.pgbloat.advice;

import java.io.Serializable;

/**
 * What to do about one relation, and why (decided by {@link io.pgbloat.advice.ActionAdvisor} from the
 * figures and their intervals).
 *
 * @param action the action
 * @param reason one sentence: the figures that decided, and for a rewrite the disk it needs
 * @param rewriteNeedsBytes for a rewrite, the free disk it needs while it runs at most: the new
 *     copy of the table (its size less the least it gives back), its indexes' rebuilt copies
 *     not included; else 0
 */
public record Advice(Action action, String reason, long rewriteNeedsBytes) implements Serializable {
  /** The advice for a partitioned table's rollup row: its partitions have their own. */
  public static final Advice PARTITIONED = new Advice(Action.NONE, "a partitioned table: act on its partitions", 0);
  /** The advice for a partitioned index's rollup row: its leaf indexes have their own. */
  public static final Advice PARTITIONED_INDEX = new Advice(Action.NONE, "a partitioned index: act on its leaf indexes",
      0);
}
