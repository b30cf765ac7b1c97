package io.pgbloat.xact;

import io.pgbloat.error.CommitStatusUnavailableException;
import io.pgbloat.io.store.FileStore;

/**
 * TransactionIdIsInProgress and TransactionIdDidCommit as a server starting on this data
 * directory would answer them ({@code src/backend/access/transam/transam.c},
 * {@code procarray.c}). One instance per thread: it caches commit-log pages.
 */
public final class TransactionStatus implements TransactionOutcomes {
  private final CommitLog commitLog;
  private final MultiXacts multiXacts;
  private final ClusterTransactions cluster;
  private final int floor;
  private long withoutOutcome;
  private long unsettled;

  public TransactionStatus(FileStore files, ClusterTransactions cluster) {
    this.commitLog = new CommitLog(files);
    this.multiXacts = new MultiXacts(files, cluster.nextMulti(), cluster.nextMultiOffset());
    this.cluster = cluster;
    this.floor = cluster.firstWithoutRecordedOutcome();
  }

  /**
   * In progress: a prepared transaction (it survives the shutdown), or, when the control file
   * comes from an online checkpoint, a transaction with no recorded outcome that was not yet
   * finished at that checkpoint, or one the copy holds no status for at all: a copy of a
   * running server ends where its pg_xact was copied, and a transaction past that end was
   * running then (HeapTupleSatisfiesDirty's answer for a transaction still in progress).
   * Anything else without an outcome crashed. A transaction older than
   * {@link ClusterTransactions#firstWithoutRecordedOutcome} is never in progress but prepared:
   * no commit-log page is read for it.
   */
  @Override
  public boolean isInProgress(int xid) {
    boolean inProgress = inProgress(xid);
    if (inProgress) {
      unsettled++;
    }
    return inProgress;
  }

  private boolean inProgress(int xid) {
    if (!TransactionIds.isNormal(xid)) {
      return false;
    }
    if (cluster.wal().of(xid) != null) {
      return false; // finished, as the WAL records
    }
    if (cluster.isPrepared(xid)) {
      return true;
    }
    if (TransactionIds.precedes(xid, floor)) {
      return false;
    }
    XidStatus recorded = commitLog.status(xid);
    if (recorded == null) {
      withoutOutcome++;
      return true;
    }
    return TransactionIds.isNormal(cluster.oldestActiveXid()) && recorded == XidStatus.IN_PROGRESS;
  }

  /**
   * TransactionIdDidCommit. Bootstrap and frozen ids are committed, invalid is not (as
   * TransactionLogFetch answers for special ids). A sub-committed transaction is not: after
   * a stop its parent's commit would have marked it committed, and PostgreSQL too answers
   * false when pg_subtrans no longer knows the parent. A transaction the copy holds no
   * status for did not commit as far as the copy shows (it is {@linkplain #isInProgress in
   * progress}).
   *
   * @throws CommitStatusUnavailableException when pg_xact lacks the page of a transaction
   *     older than the checkpoint: the copy is damaged there
   */
  @Override
  public boolean didCommit(int xid) {
    if (!TransactionIds.isNormal(xid)) {
      return xid == TransactionIds.BOOTSTRAP || xid == TransactionIds.FROZEN;
    }
    XidStatus logged = cluster.wal().of(xid);
    if (logged != null) {
      return logged == XidStatus.COMMITTED;
    }
    XidStatus recorded = commitLog.status(xid);
    if (recorded == null) {
      if (TransactionIds.precedes(xid, floor)) {
        throw new CommitStatusUnavailableException("Cannot look up the status of transaction "
            + Integer.toUnsignedString(xid) + ", older than the checkpoint's " + Integer.toUnsignedString(floor)
            + ": " + commitLog.whyMissing(xid));
      }
      return false;
    }
    if (recorded == XidStatus.SUB_COMMITTED && TransactionIds.isNormal(cluster.oldestActiveXid())) {
      unsettled++; // a copy of a running server: its parent's commit, if it comes, makes it committed
    }
    return recorded == XidStatus.COMMITTED;
  }

  /**
   * HeapTupleGetUpdateXid for a multixact xmax: its updater, or 0 if it only locked. A
   * multixact whose members the copy does not hold answers 0 too, counted as a decision
   * without an outcome: its updater, if any, was still running when the copy was taken, and
   * a row deleted or updated by a running transaction is live for both snapshot rules.
   */
  @Override
  public int multiXactUpdater(int multi) {
    long updater = multiXacts.updateXid(multi);
    if (updater == MultiXacts.NOT_IN_COPY) {
      withoutOutcome++;
      unsettled++;
      return TransactionIds.INVALID;
    }
    return (int) updater;
  }

  /** How many answers so far were for transactions the copy holds no outcome for. */
  @Override
  public long withoutOutcome() {
    return withoutOutcome;
  }

  @Override
  public long unsettled() {
    return unsettled;
  }
}
