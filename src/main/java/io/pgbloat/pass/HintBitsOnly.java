package io.pgbloat.pass;

import io.pgbloat.xact.TransactionOutcomes;

/**
 * The outcomes known before the commit log is: none. A compressed backup's pages are counted as
 * it decodes, before its pg_xact (anywhere in the archive) and its pg_control (last) have come
 * by; a tuple its hint bits settle is counted then, and a page with any tuple they do not settle
 * waits, whole, until the commit log is known ({@link OutcomeNotYetKnown}).
 */
public final class HintBitsOnly implements TransactionOutcomes {
  @Override
  public boolean isInProgress(int xid) {
    throw OutcomeNotYetKnown.INSTANCE;
  }

  @Override
  public boolean didCommit(int xid) {
    throw OutcomeNotYetKnown.INSTANCE;
  }

  @Override
  public int multiXactUpdater(int multi) {
    throw OutcomeNotYetKnown.INSTANCE;
  }

  @Override
  public long withoutOutcome() {
    return 0;
  }

  /** None: hint bits are set only on outcomes that are final. */
  @Override
  public long unsettled() {
    return 0;
  }

  /**
   * A tuple whose outcome only the commit log gives: the page counting it stops, to be counted
   * again once the log is known. One instance, without a stack trace: it is control flow, thrown
   * once per such page.
   */
  public static final class OutcomeNotYetKnown extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final OutcomeNotYetKnown INSTANCE = new OutcomeNotYetKnown();

    private OutcomeNotYetKnown() {
      super("the tuple's outcome needs the commit log", null, false, false);
    }
  }
}
