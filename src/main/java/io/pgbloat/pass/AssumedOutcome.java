package io.pgbloat.pass;

import io.pgbloat.page.HeapPage;
import io.pgbloat.page.TupleVisibility;
import io.pgbloat.xact.DirtySnapshot;

/**
 * The dirty snapshot by hint bits alone ({@link HintBitsOnly}), but for the tuples of one
 * {@link TupleOutcomeKey}, the first the commit log would have to decide, which it takes as
 * live: a page whose undecided tuples share one key is counted as if they were live and, as it
 * picks them out ({@link HeapPage#countBothWays}), as if dead, and the commit log picks one
 * once it is known. A tuple of a second such key stops the count
 * ({@link HintBitsOnly.OutcomeNotYetKnown}). One instance serves one thread.
 */
public final class AssumedOutcome implements TupleVisibility, HeapPage.AssumedTuples {
  private final DirtySnapshot hintBits = new DirtySnapshot(new HintBitsOnly());
  /** The key assumed, once a tuple needed one (its fields: no object a tuple). */
  private boolean keyed;
  private int xmin;
  private int xmax;
  private int infomask;
  private int xvac;

  /** Starts a page: no key yet. */
  public void newPage() {
    this.keyed = false;
  }

  /** The key assumed on the page so far, or null when its hint bits decided every tuple. */
  public TupleOutcomeKey key() {
    return keyed ? new TupleOutcomeKey(xmin, xmax, infomask, xvac) : null;
  }

  @Override
  public boolean isLive(int xmin, int xmax, int infomask, int xvac) {
    try {
      return hintBits.isLive(xmin, xmax, infomask, xvac);
    } catch (HintBitsOnly.OutcomeNotYetKnown e) {
      int read = infomask & DirtySnapshot.READ_BITS;
      int vacuum = TupleOutcomeKey.xvacRead(infomask, xvac);
      if (!keyed) {
        keyed = true;
        this.xmin = xmin;
        this.xmax = xmax;
        this.infomask = read;
        this.xvac = vacuum;
      } else if (!isKey(xmin, xmax, read, vacuum)) {
        throw e;
      }
      return true;
    }
  }

  /**
   * Whether the tuple was taken as live on the key's account: it has the key's fields, which
   * are all its hint bits decide on, so it was as undecided as the tuple that set the key.
   */
  @Override
  public boolean isAssumed(int xmin, int xmax, int infomask, int xvac) {
    return keyed && isKey(xmin, xmax, infomask & DirtySnapshot.READ_BITS, TupleOutcomeKey.xvacRead(infomask, xvac));
  }

  private boolean isKey(int xmin, int xmax, int read, int vacuum) {
    return this.xmin == xmin && this.xmax == xmax && this.infomask == read && this.xvac == vacuum;
  }
}
