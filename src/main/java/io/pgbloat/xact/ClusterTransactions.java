package io.pgbloat.xact;

import java.io.Serializable;
import java.util.Arrays;

/**
 * What the stopped cluster's control file and {@code pg_twophase} say about transactions:
 * enough to decide, offline, whether a transaction is still in progress. Small and
 * serializable, so the driver reads it once and every task gets a copy.
 *
 * @param nextXid checkpoint nextXid (its low 32 bits): first unassigned transaction id
 * @param nextMulti checkpoint nextMulti: first unassigned MultiXactId
 * @param nextMultiOffset checkpoint nextMultiOffset: first unassigned member offset
 * @param oldestActiveXid checkpoint oldestActiveXid: set only by an online checkpoint (a base
 *     backup, a standby's restartpoint); 0 after a clean shutdown, when nothing ran
 * @param preparedXids prepared transactions and their subtransactions, sorted: they survive a
 *     shutdown and are in progress
 * @param wal the outcomes the copy's WAL records past its checkpoint, which come before
 *     pg_xact's (recovery would write them there)
 */
public record ClusterTransactions(int nextXid, int nextMulti, int nextMultiOffset, int oldestActiveXid, int[] preparedXids,
    WalOutcomes wal) implements Serializable {

  public ClusterTransactions {
    preparedXids = preparedXids.clone();
    Arrays.sort(preparedXids);
  }

  /** A copy whose WAL is not read (a clean shutdown: pg_xact holds every outcome). */
  public ClusterTransactions(int nextXid, int nextMulti, int nextMultiOffset, int oldestActiveXid, int[] preparedXids) {
    this(nextXid, nextMulti, nextMultiOffset, oldestActiveXid, preparedXids, WalOutcomes.NONE);
  }

  boolean isPrepared(int xid) {
    return Arrays.binarySearch(preparedXids, xid) >= 0;
  }

  /**
   * The first transaction the copy may hold no outcome for: the checkpoint's oldestActiveXid
   * when it is an online one (a base backup, a snapshot, a standby), else nextXid. Every
   * older transaction had its pg_xact page before the checkpoint, so the copy must hold it.
   */
  int firstWithoutRecordedOutcome() {
    return TransactionIds.isNormal(oldestActiveXid) ? oldestActiveXid : nextXid;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ClusterTransactions other
        && nextXid == other.nextXid
        && nextMulti == other.nextMulti
        && nextMultiOffset == other.nextMultiOffset
        && oldestActiveXid == other.oldestActiveXid
        && Arrays.equals(preparedXids, other.preparedXids)
        && wal.equals(other.wal);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * (31 * (31 * nextXid + nextMulti) + nextMultiOffset) + oldestActiveXid) + 31 * Arrays.hashCode(preparedXids)
        + wal.hashCode();
  }

  @Override
  public String toString() {
    return "ClusterTransactions[nextXid=" + Integer.toUnsignedString(nextXid)
        + ", nextMulti=" + Integer.toUnsignedString(nextMulti)
        + ", nextMultiOffset=" + Integer.toUnsignedString(nextMultiOffset)
        + ", oldestActiveXid=" + Integer.toUnsignedString(oldestActiveXid)
        + ", prepared=" + preparedXids.length + ", " + wal + "]";
  }
}
