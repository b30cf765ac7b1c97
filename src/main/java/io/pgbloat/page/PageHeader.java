package io.pgbloat.page;

/**
 * The header at the start of every PostgreSQL page, layout version 4
 * ({@code src/include/storage/bufpage.h}).
 *
 * <pre>
 * +----------------+---------------------------------+
 * | PageHeaderData | linp1 linp2 linp3 ...           |
 * +-----------+----+---------------------------------+
 * | ... linpN |                                      |
 * +-----------+--------------------------------------+
 * |           ^ pd_lower                             |
 * |                                                  |
 * |             v pd_upper                           |
 * +-------------+------------------------------------+
 * |             | tupleN ...                         |
 * +-------------+------------------+-----------------+
 * |       ... tuple3 tuple2 tuple1 | "special space" |
 * +--------------------------------+-----------------+
 *                                  ^ pd_special
 * </pre>
 *
 * All reads are absolute and little-endian on an {@link #BLCKSZ}-byte array.
 */
public final class PageHeader {
  /** Block size this tool reads; the default of {@code pg_config.h} (BLCKSZ). */
  public static final int BLCKSZ = 8192;

  /** PageXLogRecPtr pd_lsn: LSN of the last WAL record that changed the page (8 bytes). */
  public static final int PD_LSN_OFFSET = 0;
  /** uint16 pd_checksum: the page checksum, when data checksums are on. */
  public static final int PD_CHECKSUM_OFFSET = 8;
  /** uint16 pd_flags: the PD_* flag bits below. */
  public static final int PD_FLAGS_OFFSET = 10;
  /** LocationIndex pd_lower: offset to start of free space (end of the line pointer array). */
  public static final int PD_LOWER_OFFSET = 12;
  /** LocationIndex pd_upper: offset to end of free space (start of the newest tuple). */
  public static final int PD_UPPER_OFFSET = 14;
  /** LocationIndex pd_special: offset to start of special space (BLCKSZ on heap pages). */
  public static final int PD_SPECIAL_OFFSET = 16;
  /** uint16 pd_pagesize_version: page size OR'ed with the layout version. */
  public static final int PD_PAGESIZE_VERSION_OFFSET = 18;
  /** TransactionId pd_prune_xid: oldest prunable xid on the page, or zero. */
  public static final int PD_PRUNE_XID_OFFSET = 20;
  /** SizeOfPageHeaderData: offsetof(PageHeaderData, pd_linp); line pointers start here. */
  public static final int SIZE_OF_PAGE_HEADER_DATA = 24;
  /* ^ - 24 bytes - ^ */

  /**
   * PageGetContents: where a page without line pointers (a metapage, a range-map or posting-tree
   * page, a visibility-map page) keeps its data, MAXALIGN(SizeOfPageHeaderData).
   */
  public static final int PAGE_CONTENTS = maxAlign(SIZE_OF_PAGE_HEADER_DATA);

  /** PD_HAS_FREE_LINES: are there any unused line pointers? (a hint) */
  public static final int PD_HAS_FREE_LINES = 0x0001;
  /** PD_PAGE_FULL: not enough free space for a new tuple? (a hint) */
  public static final int PD_PAGE_FULL = 0x0002;
  /** PD_ALL_VISIBLE: all tuples on the page are visible to everyone. */
  public static final int PD_ALL_VISIBLE = 0x0004;
  /** PD_VALID_FLAG_BITS: OR of all valid pd_flags bits; any other bit makes the header insane. */
  public static final int PD_VALID_FLAG_BITS = 0x0007;

  /** PG_PAGE_LAYOUT_VERSION: the layout version of PostgreSQL 8.3 and later. */
  public static final int PG_PAGE_LAYOUT_VERSION = 4;

  /** MAXIMUM_ALIGNOF on x86-64 and aarch64 ({@code pg_config.h}). */
  public static final int MAXIMUM_ALIGNOF = 8;

  private PageHeader() {}

  public static int checksum(byte[] page) {
    return LittleEndian.uint16(page, PD_CHECKSUM_OFFSET);
  }

  public static int flags(byte[] page) {
    return LittleEndian.uint16(page, PD_FLAGS_OFFSET);
  }

  public static int lower(byte[] page) {
    return LittleEndian.uint16(page, PD_LOWER_OFFSET);
  }

  public static int upper(byte[] page) {
    return LittleEndian.uint16(page, PD_UPPER_OFFSET);
  }

  public static int special(byte[] page) {
    return LittleEndian.uint16(page, PD_SPECIAL_OFFSET);
  }

  public static int pageSizeVersion(byte[] page) {
    return LittleEndian.uint16(page, PD_PAGESIZE_VERSION_OFFSET);
  }

  /** PageIsNew: a page is new (never initialized) when pd_upper is zero. */
  public static boolean isNew(byte[] page) {
    return upper(page) == 0;
  }

  /** Whether every byte of {@code page} is zero: the only new page PageIsVerified accepts. */
  public static boolean isAllZero(byte[] page) {
    for (int i = 0; i < BLCKSZ; i += Long.BYTES) {
      if (LittleEndian.int64(page, i) != 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * PageGetMaxOffsetNumber: the number of line pointers. If the page is not initialized
   * (pd_lower at or below the header), the answer is zero, to ensure sane behavior.
   */
  public static int maxOffsetNumber(byte[] page) {
    int lower = lower(page);
    return lower <= SIZE_OF_PAGE_HEADER_DATA
        ? 0
        : (lower - SIZE_OF_PAGE_HEADER_DATA) / ItemId.SIZE_OF_ITEM_ID_DATA;
  }

  /** MAXALIGN_DOWN: round {@code length} down to {@link #MAXIMUM_ALIGNOF}. */
  public static int maxAlignDown(int length) {
    return length & ~(MAXIMUM_ALIGNOF - 1);
  }

  /** MAXALIGN: round {@code length} up to {@link #MAXIMUM_ALIGNOF}. */
  public static int maxAlign(int length) {
    return (length + MAXIMUM_ALIGNOF - 1) & ~(MAXIMUM_ALIGNOF - 1);
  }
}
