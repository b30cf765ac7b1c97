package io.pgbloat.xact;

import static io.pgbloat.page.HeapTupleHeader.HEAP_LOCK_MASK;
import static io.pgbloat.page.HeapTupleHeader.HEAP_MOVED;
import static io.pgbloat.page.HeapTupleHeader.HEAP_MOVED_IN;
import static io.pgbloat.page.HeapTupleHeader.HEAP_MOVED_OFF;
import static io.pgbloat.page.HeapTupleHeader.HEAP_XMAX_COMMITTED;
import static io.pgbloat.page.HeapTupleHeader.HEAP_XMAX_INVALID;
import static io.pgbloat.page.HeapTupleHeader.HEAP_XMAX_IS_MULTI;
import static io.pgbloat.page.HeapTupleHeader.HEAP_XMAX_LOCK_ONLY;
import static io.pgbloat.page.HeapTupleHeader.HEAP_XMIN_COMMITTED;
import static io.pgbloat.page.HeapTupleHeader.HEAP_XMIN_INVALID;
import static io.pgbloat.page.HeapTupleHeader.xmaxIsLockedOnly;
import static io.pgbloat.page.HeapTupleHeader.xminCommitted;
import static io.pgbloat.page.HeapTupleHeader.xminInvalid;

import io.pgbloat.page.TupleVerdict;
import io.pgbloat.page.TupleVisibility;

/**
 * HeapTupleSatisfiesDirty ({@code src/backend/access/heap/heapam_visibility.c}), the rule
 * pgstattuple uses to call a tuple live or dead: live if its insert committed or is still in
 * progress and no committed update or delete removed it. Hint bits are trusted where set, as
 * PostgreSQL trusts them; where missing, the commit log decides. There is no current
 * transaction offline, so the "inserted/deleted by me" branches never apply.
 */
public final class DirtySnapshot implements TupleVisibility {
  /** The t_infomask bits {@link #isLive} reads: two tuples alike in them and their ids are decided alike. */
  public static final int READ_BITS = HEAP_XMIN_COMMITTED | HEAP_XMIN_INVALID | HEAP_MOVED | HEAP_XMAX_INVALID
      | HEAP_XMAX_COMMITTED | HEAP_XMAX_IS_MULTI | HEAP_XMAX_LOCK_ONLY | HEAP_LOCK_MASK;

  private final TransactionOutcomes xacts;

  public DirtySnapshot(TransactionOutcomes xacts) {
    this.xacts = xacts;
  }

  @Override
  public boolean isLive(int xmin, int xmax, int infomask, int xvac) {
    if (!xminCommitted(infomask)) {
      if (xminInvalid(infomask)) {
        return false;
      }
      if ((infomask & HEAP_MOVED_OFF) != 0) {
        // moved away by a pre-9.0 VACUUM FULL: gone if that vacuum committed
        if (!xacts.isInProgress(xvac) && xacts.didCommit(xvac)) {
          return false;
        }
      } else if ((infomask & HEAP_MOVED_IN) != 0) {
        // moved here by a pre-9.0 VACUUM FULL: here only if that vacuum committed
        if (xacts.isInProgress(xvac) || !xacts.didCommit(xvac)) {
          return false;
        }
      } else if (xacts.isInProgress(xmin)) {
        return true; // in insertion by another transaction
      } else if (!xacts.didCommit(xmin)) {
        return false; // it must have aborted or crashed
      }
    }

    // by here, the inserting transaction has committed
    if ((infomask & HEAP_XMAX_INVALID) != 0) {
      return true; // xmax invalid or aborted
    }
    if ((infomask & HEAP_XMAX_COMMITTED) != 0) {
      return xmaxIsLockedOnly(infomask);
    }
    if ((infomask & HEAP_XMAX_IS_MULTI) != 0) {
      if (xmaxIsLockedOnly(infomask)) {
        return true;
      }
      int updater = xacts.multiXactUpdater(xmax);
      if (xacts.isInProgress(updater)) {
        return true;
      }
      return !xacts.didCommit(updater); // an aborted or crashed updater leaves it live
    }
    if (xacts.isInProgress(xmax)) {
      return true;
    }
    if (!xacts.didCommit(xmax)) {
      return true; // it must have aborted or crashed
    }
    // xmax committed: a lock only, or a committed update/delete
    return xmaxIsLockedOnly(infomask);
  }

  /** As {@link #isLive}, and whether a transaction the answer stood on has no outcome in the copy. */
  @Override
  public TupleVerdict verdict(int xmin, int xmax, int infomask, int xvac) {
    long guessedBefore = xacts.withoutOutcome();
    boolean live = isLive(xmin, xmax, infomask, xvac);
    return TupleVerdict.of(live, xacts.withoutOutcome() != guessedBefore);
  }

  /** How many answers so far, of this rule's commit log, stood on a transaction the copy holds no outcome for. */
  public long withoutOutcome() {
    return xacts.withoutOutcome();
  }
}
