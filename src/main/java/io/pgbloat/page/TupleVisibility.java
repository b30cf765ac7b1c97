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
   * How many answers so far stood on a transaction the copy holds no outcome for (decided as
   * still running): a page compares it before and after each tuple to count such tuples.
   */
  default long withoutOutcome() {
    return 0;
  }
}
