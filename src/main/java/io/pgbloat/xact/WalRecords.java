package io.pgbloat.xact;

import io.pgbloat.io.store.FileStore;
import io.pgbloat.page.LittleEndian;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * The records of the WAL a copy holds in {@code pg_wal}, in order, as
 * {@code src/backend/access/transam/xlogreader.c} finds them: segment after segment (named
 * {@code TTTTTTTTXXXXXXXXYYYYYYYY}: timeline, then the segment number in two halves), page
 * after page, each page checked (magic, its own address) and stripped of its header; records
 * are MAXALIGNed in what remains and may span pages, their header too. A record counts only
 * whole and with a good CRC; the first page or record that fails ends the run of WAL (the
 * end of what was written, a recycled segment's old bytes), and the next segment that
 * continues the numbering starts a new one. An XLOG_SWITCH record ends its segment without
 * ending the run: the WAL goes on at the next segment.
 *
 * <pre>
 * XLogPageHeaderData (x86-64)          XLogLongPageHeaderData (first page of a segment)
 *   uint16     xlp_magic      0           ... the short header, then
 *   uint16     xlp_info       2           uint64 xlp_sysid       24
 *   TimeLineID xlp_tli        4           uint32 xlp_seg_size    32
 *   XLogRecPtr xlp_pageaddr   8           uint32 xlp_xlog_blcksz 36
 *   uint32     xlp_rem_len   16         MAXALIGN: 40
 * MAXALIGN: 24
 *
 * XLogRecord
 *   uint32 xl_tot_len 0 | TransactionId xl_xid 4 | XLogRecPtr xl_prev 8 | uint8 xl_info 16 |
 *   RmgrId xl_rmid 17 | 2 bytes padding | pg_crc32c xl_crc 20          SizeOfXLogRecord: 24
 * </pre>
 */
public final class WalRecords {
  static final int XLOG_BLCKSZ = 8192;
  static final int SIZE_OF_SHORT_PAGE_HEADER = 24;
  static final int SIZE_OF_LONG_PAGE_HEADER = 40;
  static final int XLP_MAGIC_OFFSET = 0;
  static final int XLP_INFO_OFFSET = 2;
  static final int XLP_PAGEADDR_OFFSET = 8;
  static final int XLP_REM_LEN_OFFSET = 16;
  static final int XLP_SEG_SIZE_OFFSET = 32;
  /** XLP_FIRST_IS_CONTRECORD: the page starts with the rest of a record. */
  static final int XLP_FIRST_IS_CONTRECORD = 0x0001;
  /** XLP_LONG_HEADER: the page has the long header (a segment's first page). */
  static final int XLP_LONG_HEADER = 0x0002;

  static final int SIZE_OF_XLOG_RECORD = 24;
  static final int XL_TOT_LEN_OFFSET = 0;
  static final int XL_XID_OFFSET = 4;
  static final int XL_INFO_OFFSET = 16;
  static final int XL_RMID_OFFSET = 17;
  static final int XL_CRC_OFFSET = 20;
  /**
   * XLOG_SWITCH of RM_XLOG_ID ({@code src/include/catalog/pg_control.h}): the rest of its segment
   * holds no record, and the WAL goes on at the next segment's start.
   */
  public static final int RM_XLOG_ID = 0;
  static final int XLOG_SWITCH = 0x40;
  /** The resource manager's bits of xl_info (~XLR_INFO_MASK). */
  static final int XLR_RMGR_INFO_MASK = 0xF0;
  /** A record longer than this is taken as garbage, not assembled (XLogRecordMaxSize is 1 GB). */
  static final int MAX_RECORD_LENGTH = 1 << 30;
  private static final int MAXALIGN = 8;

  /**
   * One record: where it lies, its header fields and its bytes after the header (block headers
   * and data).
   *
   * @param lsn where it begins (ReadRecPtr)
   * @param end the byte after its last (EndRecPtr, before the next record's alignment)
   * @param runStart where the unbroken run of WAL that holds it begins: every record from there
   *     to this one was read
   */
  public record WalRecord(long lsn, long end, long runStart, int xid, int info, int rmid, byte[] bytes) {
    /** The record's kind within its resource manager: xl_info's high four bits (XLogRecGetInfo & ~XLR_INFO_MASK). */
    public int rmgrInfo() {
      return info & XLR_RMGR_INFO_MASK;
    }
  }

  private WalRecords() {}

  /** Every whole record of {@code pg_wal} from the segment holding {@code startLsn} on. */
  public static void forEach(FileStore files, WalFormat format, long startLsn, Consumer<WalRecord> action) throws IOException {
    List<String> segments = new ArrayList<>();
    for (String name : files.list("pg_wal")) {
      if (name.length() == 24 && name.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'A' && c <= 'F')) {
        segments.add(name);
      }
    }
    segments.sort(null);
    Run run = null;
    byte[] page = new byte[XLOG_BLCKSZ];
    for (String name : segments) {
      String path = "pg_wal/" + name;
      long length = files.length(path);
      if (length < XLOG_BLCKSZ) {
        continue;
      }
      files.readFully(path, 0, page, 0, XLOG_BLCKSZ);
      if (LittleEndian.uint16(page, XLP_MAGIC_OFFSET) != format.pageMagic()
          || (LittleEndian.uint16(page, XLP_INFO_OFFSET) & XLP_LONG_HEADER) == 0) {
        continue; // not this version's WAL, or not written as a segment's first page
      }
      long segmentSize = LittleEndian.uint32(page, XLP_SEG_SIZE_OFFSET);
      long segmentNumber = Long.parseUnsignedLong(name.substring(8, 16), 16) * (0x1_0000_0000L / segmentSize)
          + Long.parseUnsignedLong(name.substring(16), 16);
      long segmentStart = segmentNumber * segmentSize;
      if (segmentStart + segmentSize <= startLsn || length < segmentSize) {
        continue;
      }
      if (run == null || run.nextLsn != segmentStart) {
        run = new Run(action, segmentStart);
      }
      for (long offset = 0; offset < segmentSize; offset += XLOG_BLCKSZ) {
        if (offset > 0) {
          files.readFully(path, offset, page, 0, XLOG_BLCKSZ);
        }
        if (!run.page(page, format, segmentStart + offset)) {
          run.nextLsn = -1; // the WAL ends here: nothing after it continues this run
          break;
        }
        if (run.switched) {
          run.continueAt(segmentStart + segmentSize);
          break;
        }
      }
    }
  }

  /** A run of contiguous valid pages and the record being assembled across them. */
  private static final class Run {
    private final Consumer<WalRecord> action;
    private final long runStart;
    private long nextLsn;
    private long recordStart;
    private boolean started;
    private long skip;
    private byte[] record = new byte[0];
    private int filled;
    private int wanted = 4; // first xl_tot_len, then the whole record
    private long streamOffset; // bytes of record data seen, for MAXALIGN
    private boolean switched; // an XLOG_SWITCH ended the segment

    Run(Consumer<WalRecord> action, long runStart) {
      this.action = action;
      this.runStart = runStart;
    }

    /** Goes on at {@code lsn}, a segment's start, after an XLOG_SWITCH. */
    void continueAt(long lsn) {
      nextLsn = lsn;
      switched = false;
      filled = 0;
      wanted = 4;
      skip = 0;
      streamOffset = 0;
    }

    /** Feeds one page at {@code lsn}; false when it is no valid page of this WAL. */
    boolean page(byte[] page, WalFormat format, long lsn) {
      int info = LittleEndian.uint16(page, XLP_INFO_OFFSET);
      if (LittleEndian.uint16(page, XLP_MAGIC_OFFSET) != format.pageMagic()
          || LittleEndian.int64(page, XLP_PAGEADDR_OFFSET) != lsn) {
        return false;
      }
      int at = (info & XLP_LONG_HEADER) != 0 ? SIZE_OF_LONG_PAGE_HEADER : SIZE_OF_SHORT_PAGE_HEADER;
      boolean continued = (info & XLP_FIRST_IS_CONTRECORD) != 0;
      if (!started) {
        started = true;
        // the run starts inside a record begun before it: skip its rest, then align
        skip = continued ? align(LittleEndian.uint32(page, XLP_REM_LEN_OFFSET)) : 0;
      } else if (continued != (filled > 0 || skip > 0)) {
        return false; // a record was cut short, or a page claims a continuation that is not there
      }
      nextLsn = lsn + XLOG_BLCKSZ;
      while (at < XLOG_BLCKSZ) {
        if (skip > 0) {
          int n = (int) Math.min(skip, XLOG_BLCKSZ - at);
          skip -= n;
          at += n;
          streamOffset += n;
          continue;
        }
        int n = Math.min(wanted - filled, XLOG_BLCKSZ - at);
        if (filled == 0) {
          recordStart = lsn + at;
        }
        if (record.length < wanted) {
          record = Arrays.copyOf(record, Math.max(wanted, 2 * record.length));
        }
        System.arraycopy(page, at, record, filled, n);
        filled += n;
        at += n;
        streamOffset += n;
        if (filled < wanted) {
          continue; // the rest is on the next page
        }
        if (wanted == 4) {
          long total = LittleEndian.uint32(record, XL_TOT_LEN_OFFSET);
          if (total < SIZE_OF_XLOG_RECORD || total > MAX_RECORD_LENGTH) {
            return false; // zeros past the end of the WAL, or garbage
          }
          wanted = (int) total;
          continue;
        }
        if (!crcMatches(record, wanted)) {
          return false; // a torn or half-written last record
        }
        WalRecord read = new WalRecord(recordStart, lsn + at, runStart, LittleEndian.int32(record, XL_XID_OFFSET),
            record[XL_INFO_OFFSET] & 0xFF, record[XL_RMID_OFFSET] & 0xFF,
            Arrays.copyOfRange(record, SIZE_OF_XLOG_RECORD, wanted));
        action.accept(read);
        if (read.rmid() == RM_XLOG_ID && read.rmgrInfo() == XLOG_SWITCH) {
          switched = true;
          return true;
        }
        filled = 0;
        wanted = 4;
        skip = align(streamOffset) - streamOffset; // the next record starts MAXALIGNed
      }
      return true;
    }

    /**
     * Page headers are MAXALIGNed sizes and pages a multiple of MAXALIGN, so aligning the
     * offset in the stream of record bytes aligns the LSN.
     */
    private static long align(long offset) {
      return (offset + MAXALIGN - 1) & ~(long) (MAXALIGN - 1);
    }

    /** The record's CRC-32C: over the bytes after the header, then the header up to xl_crc. */
    private static boolean crcMatches(byte[] record, int length) {
      CRC32C crc = new CRC32C();
      crc.update(record, SIZE_OF_XLOG_RECORD, length - SIZE_OF_XLOG_RECORD);
      crc.update(record, 0, XL_CRC_OFFSET);
      return crc.getValue() == LittleEndian.uint32(record, XL_CRC_OFFSET);
    }
  }
}
