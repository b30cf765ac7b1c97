package io.pgbloat.xact;

import static io.pgbloat.page.HeapTupleHeader.HEAP_XMAX_COMMITTED;
import static io.pgbloat.page.HeapTupleHeader.HEAP_XMAX_INVALID;
import static io.pgbloat.page.HeapTupleHeader.HEAP_XMAX_IS_MULTI;
import static io.pgbloat.page.HeapTupleHeader.xmaxIsLockedOnly;
import static io.pgbloat.page.HeapTupleHeader.xminCommitted;
import static io.pgbloat.page.HeapTupleHeader.xminInvalid;

import io.pgbloat.page.TupleVisibility;

/**
 * The catalog rows a new session on this data directory would see: inserted by a committed
 * transaction and not deleted or updated by one (an MVCC snapshot taken after every
 * transaction but the prepared ones had finished). Used for pg_class, pg_namespace and
 * pg_database, where {@link DirtySnapshot} could show both versions of a row that a prepared
 * transaction changed. With no transaction in progress the two rules agree.
 */
public final class CommittedSnapshot implements TupleVisibility {
  private final TransactionStatus xacts;

  public CommittedSnapshot(TransactionStatus xacts) {
    this.xacts = xacts;
  }

  @Override
  public boolean isLive(int xmin, int xmax, int infomask, int xvac) {
    if (!xminCommitted(infomask)
        && (xminInvalid(infomask) || xacts.isInProgress(xmin) || !xacts.didCommit(xmin))) {
      return false;
    }
    if ((infomask & HEAP_XMAX_INVALID) != 0 || xmaxIsLockedOnly(infomask)) {
      return true;
    }
    if ((infomask & HEAP_XMAX_COMMITTED) != 0) {
      return false;
    }
    int deleter = (infomask & HEAP_XMAX_IS_MULTI) != 0 ? xacts.multiXactUpdater(xmax) : xmax;
    return xacts.isInProgress(deleter) || !xacts.didCommit(deleter);
  }

}
