package io.pgbloat.page;

/**
 * A line pointer ({@code src/include/storage/itemid.h}): one 32-bit word per item after the
 * page header, the n-th at {@code SIZE_OF_PAGE_HEADER_DATA + (n - 1) * 4}.
 *
 * <pre>
 *  bit 31            17 16 15 14             0      (little-endian word, as GCC lays out
 * +-------------------+-----+-----------------+       the C bit fields lp_off:15,
 * |  lp_len (15)      |flags|  lp_off (15)    |       lp_flags:2, lp_len:15)
 * +-------------------+-----+-----------------+
 * </pre>
 */
public final class ItemId {
  /** sizeof(ItemIdData). */
  public static final int SIZE_OF_ITEM_ID_DATA = 4;

  /** LP_UNUSED: unused (should always have lp_len=0). */
  public static final int LP_UNUSED = 0;
  /** LP_NORMAL: used (should always have lp_len&gt;0). */
  public static final int LP_NORMAL = 1;
  /** LP_REDIRECT: HOT redirect (should have lp_len=0); lp_off is the target item. */
  public static final int LP_REDIRECT = 2;
  /** LP_DEAD: dead, may or may not have storage. */
  public static final int LP_DEAD = 3;

  private static final int LP_OFF_MASK = 0x7FFF;
  private static final int LP_FLAGS_SHIFT = 15;
  private static final int LP_FLAGS_MASK = 0x3;
  private static final int LP_LEN_SHIFT = 17;

  private ItemId() {}

  /** The raw line pointer word of item {@code offsetNumber} (1-based, as OffsetNumber). */
  public static int word(byte[] page, int offsetNumber) {
    return LittleEndian.int32(
        page, PageHeader.SIZE_OF_PAGE_HEADER_DATA + (offsetNumber - 1) * SIZE_OF_ITEM_ID_DATA);
  }

  /** lp_off: offset to the tuple from the start of the page. */
  public static int offset(int word) {
    return word & LP_OFF_MASK;
  }

  /** lp_flags: one of LP_UNUSED, LP_NORMAL, LP_REDIRECT, LP_DEAD. */
  public static int flags(int word) {
    return (word >>> LP_FLAGS_SHIFT) & LP_FLAGS_MASK;
  }

  /** lp_len: byte length of the tuple. */
  public static int length(int word) {
    return word >>> LP_LEN_SHIFT;
  }
}
