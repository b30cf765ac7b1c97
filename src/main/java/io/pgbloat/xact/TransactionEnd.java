package io.pgbloat.xact;

import io.pgbloat.page.LittleEndian;
import java.util.ArrayList;
import java.util.List;

/**
 * A commit or abort record of the transaction resource manager ({@code
 * src/backend/access/rmgrdesc/xactdesc.c}, ParseCommitRecord and ParseAbortRecord, parse them;
 * layouts in {@code src/include/access/xact.h}): the transaction it ends, its subtransactions,
 * and the relation files it drops.
 *
 * <pre>
 * main data of XLOG_XACT_COMMIT / _ABORT / _COMMIT_PREPARED / _ABORT_PREPARED, in order:
 *   TimestampTz xact_time                           8
 *   xl_xact_xinfo {uint32 xinfo}                    4      if xl_info has XLOG_XACT_HAS_INFO
 *   xl_xact_dbinfo {Oid dbId, tsId}                 8      XACT_XINFO_HAS_DBINFO
 *   xl_xact_subxacts {int n; TransactionId[n]}      4+4n   XACT_XINFO_HAS_SUBXACTS
 *   xl_xact_relfilelocators {int n; 12-byte[n]}     4+12n  XACT_XINFO_HAS_RELFILELOCATORS
 *   xl_xact_stats_items {int n; item[n]}            4+sn   XACT_XINFO_HAS_DROPPED_STATS (15+)
 *   xl_xact_invals {int n; 16-byte[n]}              4+16n  XACT_XINFO_HAS_INVALS (commits only)
 *   xl_xact_twophase {TransactionId xid}            4      XACT_XINFO_HAS_TWOPHASE
 * </pre>
 *
 * @param committed a commit (else an abort)
 * @param xid the transaction ended: the prepared one for COMMIT/ABORT PREPARED
 * @param subxacts its subtransactions, which end with it
 * @param droppedFiles the relation files it drops, every fork of each
 */
public record TransactionEnd(boolean committed, int xid, int[] subxacts, List<DroppedFile> droppedFiles) {
  /** RM_XACT_ID ({@code src/include/access/rmgrlist.h}). */
  static final int RM_XACT_ID = 1;
  /** XLOG_XACT_OPMASK and the operations taken. */
  static final int XLOG_XACT_OPMASK = 0x70;
  static final int XLOG_XACT_COMMIT = 0x00;
  static final int XLOG_XACT_ABORT = 0x20;
  static final int XLOG_XACT_COMMIT_PREPARED = 0x30;
  static final int XLOG_XACT_ABORT_PREPARED = 0x40;
  /** XLOG_XACT_HAS_INFO: an xl_xact_xinfo follows xact_time. */
  static final int XLOG_XACT_HAS_INFO = 0x80;
  static final int XACT_XINFO_HAS_DBINFO = 1;
  static final int XACT_XINFO_HAS_SUBXACTS = 1 << 1;
  static final int XACT_XINFO_HAS_RELFILELOCATORS = 1 << 2;
  static final int XACT_XINFO_HAS_INVALS = 1 << 3;
  static final int XACT_XINFO_HAS_TWOPHASE = 1 << 4;
  static final int XACT_XINFO_HAS_DROPPED_STATS = 1 << 8;
  static final int SIZE_OF_XACT_TIME = 8;
  static final int SIZE_OF_DBINFO = 8;
  static final int SIZE_OF_RELFILELOCATOR = 12;
  static final int SIZE_OF_INVALIDATION_MESSAGE = 16;

  /** A relation file a transaction's end removes: RelFileLocator (spcOid, dbOid, relNumber). */
  public record DroppedFile(long tablespace, long database, long relNumber) {}

  public TransactionEnd {
    subxacts = subxacts.clone();
    droppedFiles = List.copyOf(droppedFiles);
  }

  /**
   * The commit or abort {@code record} is, or null when it is neither.
   *
   * @throws IllegalArgumentException when it is one but its counts run past its data (its CRC
   *     matched, so it is not this version's layout)
   */
  public static TransactionEnd of(WalRecords.WalRecord record, WalFormat format) {
    return isEnd(record) ? of(record, RecordContents.of(record.bytes()).mainData(), format) : null;
  }

  /**
   * As {@link #of(WalRecords.WalRecord, WalFormat)}, of a record already split:
   * {@code data} its main data.
   */
  public static TransactionEnd of(WalRecords.WalRecord record, byte[] data, WalFormat format) {
    if (!isEnd(record)) {
      return null;
    }
    boolean commit = isCommit(record.info() & XLOG_XACT_OPMASK);
    try {
      int at = SIZE_OF_XACT_TIME;
      int xinfo = 0;
      if ((record.info() & XLOG_XACT_HAS_INFO) != 0) {
        xinfo = LittleEndian.int32(data, at);
        at += Integer.BYTES;
      }
      if ((xinfo & XACT_XINFO_HAS_DBINFO) != 0) {
        at += SIZE_OF_DBINFO;
      }
      int[] subxacts = new int[0];
      if ((xinfo & XACT_XINFO_HAS_SUBXACTS) != 0) {
        int n = count(data, at);
        at += Integer.BYTES;
        subxacts = new int[n];
        for (int i = 0; i < n; i++, at += Integer.BYTES) {
          subxacts[i] = LittleEndian.int32(data, at);
        }
      }
      List<DroppedFile> dropped = new ArrayList<>();
      if ((xinfo & XACT_XINFO_HAS_RELFILELOCATORS) != 0) {
        int n = count(data, at);
        at += Integer.BYTES;
        for (int i = 0; i < n; i++, at += SIZE_OF_RELFILELOCATOR) {
          dropped.add(new DroppedFile(LittleEndian.uint32(data, at), LittleEndian.uint32(data, at + 4),
              LittleEndian.uint32(data, at + 8)));
        }
      }
      if (format.statsItemSize() > 0 && (xinfo & XACT_XINFO_HAS_DROPPED_STATS) != 0) {
        at += Integer.BYTES + count(data, at) * format.statsItemSize();
      }
      if (commit && (xinfo & XACT_XINFO_HAS_INVALS) != 0) {
        at += Integer.BYTES + count(data, at) * SIZE_OF_INVALIDATION_MESSAGE;
      }
      int xid = record.xid();
      if ((xinfo & XACT_XINFO_HAS_TWOPHASE) != 0) {
        xid = LittleEndian.int32(data, at); // the prepared transaction, not the one finishing it
        at += Integer.BYTES;
      }
      if (at > data.length) {
        throw new IllegalArgumentException("its parts run past its " + data.length + " bytes of data");
      }
      return new TransactionEnd(commit, xid, subxacts, dropped);
    } catch (IndexOutOfBoundsException e) {
      throw new IllegalArgumentException("its parts run past its data");
    }
  }

  /** Whether {@code record} is a commit or an abort. */
  private static boolean isEnd(WalRecords.WalRecord record) {
    int op = record.info() & XLOG_XACT_OPMASK;
    return record.rmid() == RM_XACT_ID && (isCommit(op) || op == XLOG_XACT_ABORT || op == XLOG_XACT_ABORT_PREPARED);
  }

  private static boolean isCommit(int op) {
    return op == XLOG_XACT_COMMIT || op == XLOG_XACT_COMMIT_PREPARED;
  }

  private static int count(byte[] data, int at) {
    int n = LittleEndian.int32(data, at);
    if (n < 0 || n > data.length) {
      throw new IndexOutOfBoundsException("count " + n);
    }
    return n;
  }
}
