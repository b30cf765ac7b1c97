package io.pgbloat.xact;

import io.pgbloat.io.FileStore;

/**
 * TransactionIdIsInProgress and TransactionIdDidCommit as a server starting on this data
 * directory would answer them ({@code src/backend/access/transam/transam.c},
 * {@code procarray.c}). One instance per thread: it caches commit-log pages.
 */
public final class TransactionStatus {
  private final CommitLog commitLog;
  private final MultiXacts multiXacts;
  private final ClusterTransactions cluster;

  public TransactionStatus(FileStore files, ClusterTransactions cluster) {
    this.commitLog = new CommitLog(files);
    this.multiXacts = new MultiXacts(files, cluster.nextMulti(), cluster.nextMultiOffset());
    this.cluster = cluster;
  }

  /**
   * In progress: a prepared transaction (it survives the shutdown), or, when the control
   * file comes from an online checkpoint, a transaction with no recorded outcome that was
   * not yet finished at that checkpoint. Anything else without an outcome crashed.
   */
  public boolean isInProgress(int xid) {
    if (!TransactionIds.isNormal(xid)) {
      return false;
    }
    if (cluster.isPrepared(xid)) {
      return true;
    }
    int oldestActive = cluster.oldestActiveXid();
    return TransactionIds.isNormal(oldestActive)
        && !TransactionIds.precedes(xid, oldestActive)
        && commitLog.status(xid) == XidStatus.IN_PROGRESS;
  }

  /**
   * TransactionIdDidCommit. Bootstrap and frozen ids are committed, invalid is not (as
   * TransactionLogFetch answers for special ids). A sub-committed transaction is not: after
   * a stop its parent's commit would have marked it committed, and PostgreSQL too answers
   * false when pg_subtrans no longer knows the parent.
   */
  public boolean didCommit(int xid) {
    if (!TransactionIds.isNormal(xid)) {
      return xid == TransactionIds.BOOTSTRAP || xid == TransactionIds.FROZEN;
    }
    return commitLog.status(xid) == XidStatus.COMMITTED;
  }

  /** HeapTupleGetUpdateXid for a multixact xmax: its updater, or 0 if it only locked. */
  public int multiXactUpdater(int multi) {
    return multiXacts.updateXid(multi);
  }
}
