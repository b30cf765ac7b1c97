package io.pgbloat.xact;

import io.pgbloat.io.store.FileStore;

/**
 * Reads transaction status from {@code pg_xact}, as {@code src/backend/access/transam/clog.c}
 * stores it: {@link #CLOG_BITS_PER_XACT} bits per transaction, four transactions per byte,
 * lowest bits first.
 */
final class CommitLog {
  /** CLOG_BITS_PER_XACT. */
  static final int CLOG_BITS_PER_XACT = 2;
  /** CLOG_XACTS_PER_BYTE. */
  static final int CLOG_XACTS_PER_BYTE = 4;
  /** CLOG_XACTS_PER_PAGE: BLCKSZ * CLOG_XACTS_PER_BYTE. */
  static final int CLOG_XACTS_PER_PAGE = SlruFiles.SLRU_PAGE_SIZE * CLOG_XACTS_PER_BYTE;
  private static final int CLOG_XACT_BITMASK = (1 << CLOG_BITS_PER_XACT) - 1;

  private final SlruFiles pages;

  CommitLog(FileStore files) {
    this.pages = new SlruFiles(files, "pg_xact");
  }

  /** Why {@code xid}'s status is not in the copy, for messages. */
  String whyMissing(int xid) {
    return pages.whyMissing(Integer.toUnsignedLong(xid) / CLOG_XACTS_PER_PAGE);
  }

  /**
   * The recorded status of normal transaction {@code xid}, or null when the copy's pg_xact
   * ends before its page.
   */
  XidStatus status(int xid) {
    long unsigned = Integer.toUnsignedLong(xid);
    long pageNumber = unsigned / CLOG_XACTS_PER_PAGE;           // TransactionIdToPage
    int inPage = (int) (unsigned % CLOG_XACTS_PER_PAGE);        // TransactionIdToPgIndex
    int byteNumber = inPage / CLOG_XACTS_PER_BYTE;              // TransactionIdToByte
    int shift = (inPage % CLOG_XACTS_PER_BYTE) * CLOG_BITS_PER_XACT; // TransactionIdToBIndex * bits
    byte[] page = pages.pageIfCopied(pageNumber);
    return page == null ? null : XidStatus.fromBits((page[byteNumber] >> shift) & CLOG_XACT_BITMASK);
  }
}
