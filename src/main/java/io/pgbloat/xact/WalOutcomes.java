package io.pgbloat.xact;

import io.pgbloat.io.store.FileStore;
import io.pgbloat.page.LittleEndian;
import java.io.IOException;
import java.io.Serializable;
import java.util.Arrays;

/**
 * The outcomes the WAL of a copy records: the commit and abort records of the transaction
 * resource manager ({@code src/backend/access/rmgrdesc/xactdesc.c} parses them; layouts in
 * {@code src/include/access/xact.h}), read from the checkpoint's redo point on, as recovery
 * would replay them. Only outcomes are taken; no page image or change is replayed, so the
 * figures still describe the data files as they are.
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
 * @param committed transactions (and subtransactions) whose commit is recorded, sorted
 * @param aborted those whose abort is recorded, sorted
 */
public record WalOutcomes(int[] committed, int[] aborted) implements Serializable {
  /** No WAL read. */
  public static final WalOutcomes NONE = new WalOutcomes(new int[0], new int[0]);

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

  // block ids that precede a record's data (src/include/access/xlogrecord.h)
  static final int XLR_MAX_BLOCK_ID = 32;
  static final int XLR_BLOCK_ID_DATA_SHORT = 255;
  static final int XLR_BLOCK_ID_DATA_LONG = 254;
  static final int XLR_BLOCK_ID_ORIGIN = 253;
  static final int XLR_BLOCK_ID_TOPLEVEL_XID = 252;

  public WalOutcomes {
    committed = committed.clone();
    aborted = aborted.clone();
    Arrays.sort(committed);
    Arrays.sort(aborted);
  }

  /** The recorded outcome of {@code xid}, or null when the WAL read records none. */
  XidStatus of(int xid) {
    if (Arrays.binarySearch(committed, xid) >= 0) {
      return XidStatus.COMMITTED;
    }
    return Arrays.binarySearch(aborted, xid) >= 0 ? XidStatus.ABORTED : null;
  }

  /** The outcomes recorded in {@code pg_wal} from {@code startLsn} on. */
  public static WalOutcomes read(FileStore files, WalFormat format, long startLsn) throws IOException {
    IntList committed = new IntList();
    IntList aborted = new IntList();
    WalRecords.forEach(files, format, startLsn, record -> {
      if (record.rmid() != RM_XACT_ID) {
        return;
      }
      int op = record.info() & XLOG_XACT_OPMASK;
      boolean commit = op == XLOG_XACT_COMMIT || op == XLOG_XACT_COMMIT_PREPARED;
      boolean abort = op == XLOG_XACT_ABORT || op == XLOG_XACT_ABORT_PREPARED;
      if (commit || abort) {
        byte[] data = mainData(record.bytes());
        if (data != null) {
          outcome(data, record, commit, format, commit ? committed : aborted);
        }
      }
    });
    return new WalOutcomes(committed.toArray(), aborted.toArray());
  }

  /** The record's main data (the last bytes, after any block data), or null if it has blocks. */
  private static byte[] mainData(byte[] bytes) {
    int at = 0;
    while (at < bytes.length) {
      int id = bytes[at] & 0xFF;
      if (id == XLR_BLOCK_ID_DATA_SHORT && at + 2 <= bytes.length) {
        return tail(bytes, bytes[at + 1] & 0xFF);
      } else if (id == XLR_BLOCK_ID_DATA_LONG && at + 5 <= bytes.length) {
        return tail(bytes, LittleEndian.int32(bytes, at + 1));
      } else if (id == XLR_BLOCK_ID_ORIGIN) {
        at += 3; // RepOriginId
      } else if (id == XLR_BLOCK_ID_TOPLEVEL_XID) {
        at += 5; // TransactionId
      } else {
        return null; // a block reference (id <= XLR_MAX_BLOCK_ID): no xact record has one
      }
    }
    return null;
  }

  private static byte[] tail(byte[] bytes, int length) {
    return length < 0 || length > bytes.length ? null : Arrays.copyOfRange(bytes, bytes.length - length, bytes.length);
  }

  /** Adds the record's transaction and subtransactions to {@code into}; a malformed one adds nothing. */
  private static void outcome(byte[] data, WalRecords.WalRecord record, boolean commit, WalFormat format, IntList into) {
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
      if ((xinfo & XACT_XINFO_HAS_RELFILELOCATORS) != 0) {
        at += Integer.BYTES + count(data, at) * SIZE_OF_RELFILELOCATOR;
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
      }
      if (at > data.length || !TransactionIds.isNormal(xid)) {
        return;
      }
      into.add(xid);
      for (int sub : subxacts) {
        into.add(sub);
      }
    } catch (IndexOutOfBoundsException e) {
      // a record whose counts run past its data: its CRC matched, so it is not this version's layout
    }
  }

  private static int count(byte[] data, int at) {
    int n = LittleEndian.int32(data, at);
    if (n < 0 || n > data.length) {
      throw new IndexOutOfBoundsException("count " + n);
    }
    return n;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WalOutcomes w && Arrays.equals(committed, w.committed) && Arrays.equals(aborted, w.aborted);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(committed) + Arrays.hashCode(aborted);
  }

  @Override
  public String toString() {
    return "WalOutcomes[committed=" + committed.length + ", aborted=" + aborted.length + "]";
  }

  /** A growable list of ints. */
  private static final class IntList {
    private int[] values = new int[64];
    private int size;

    void add(int v) {
      if (size == values.length) {
        values = Arrays.copyOf(values, 2 * size);
      }
      values[size++] = v;
    }

    int[] toArray() {
      return Arrays.copyOf(values, size);
    }
  }
}
