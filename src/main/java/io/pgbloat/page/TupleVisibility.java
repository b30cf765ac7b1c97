package io.pgbloat.page;

/**
 * Decides whether a heap tuple counts as live. The page layer reads the header fields; the
 * rule itself (hint bits, commit log, multixacts) lives in {@code io.pgbloat.xact}, which
 * implements this.
 */
@FunctionalInterface
public interface TupleVisibility {
  /**
   * @param xmin t_xmin
   * @param xmax t_xmax (a MultiXactId when {@code infomask} has HEAP_XMAX_IS_MULTI)
   * @param infomask t_infomask
   * @param xvac t_xvac, meaningful only when {@code infomask} has HEAP_MOVED
   * @throws io.pgbloat.error.CommitStatusUnavailableException when a needed status is missing
   */
  boolean isLive(int xmin, int xmax, int infomask, int xvac);

  /**
   * As {@link #isLive}, saying too whether the answer stood on a transaction the copy holds no
   * outcome for; a rule that never guesses answers that it did not.
   */
  default TupleVerdict verdict(int xmin, int xmax, int infomask, int xvac) {
    return isLive(xmin, xmax, infomask, xvac) ? TupleVerdict.LIVE : TupleVerdict.DEAD;
  }
}
