package io.pgbloat.advice;

import java.io.Serializable;

/**
 * When a relation's waste is worth acting on: at least {@code minWastedBytes} and at least
 * {@code minPercent} of the relation, both (so a 40 kB catalog at 90 % free never is, and
 * neither is 2 % of a terabyte table).
 *
 * @param minWastedBytes --min-wasted
 * @param minPercent --min-percent, of the relation's size
 */
public record ActionThresholds(long minWastedBytes, double minPercent) implements Serializable {
  /**
   * 64 MB and 20 %: below 64 MB a rewrite's lock and I/O cost more than the disk it gives back;
   * 20 % is where the usual bloat checks start to warn (docs/reports-and-actions.md, "Actions").
   */
  public static final ActionThresholds DEFAULT = new ActionThresholds(64L << 20, 20);

  public ActionThresholds {
    if (minWastedBytes < 0) {
      throw new IllegalArgumentException("the least wasted bytes must be 0 or more, not " + minWastedBytes);
    }
    if (!(minPercent >= 0 && minPercent <= 100)) {
      throw new IllegalArgumentException("the least wasted percentage must be 0 to 100, not " + minPercent);
    }
  }
}
