package io.pgbloat.page;

/**
 * IndexTupleData ({@code src/include/access/itup.h}) and the ItemPointerData in its t_tid
 * ({@code src/include/storage/itemptr.h}, {@code block.h}), the same 13-18: the header of
 * every btree, hash, GIN and GiST index tuple. Access methods give t_tid other meanings
 * (nbtree.h's posting lists, ginblock.h's posting offsets); they read it through these offsets.
 *
 * <pre>
 * +---------------------------------------------+----------------+--------------------+
 * | t_tid: ip_blkid {bi_hi 0 (2), bi_lo 2 (2)}   | ip_posid 4 (2) | t_info 6 (2)       |
 * +---------------------------------------------+----------------+--------------------+
 * t_info: size (INDEX_SIZE_MASK, MAXALIGNed), an access method's bit 0x2000, var width 0x4000, nulls 0x8000
 * </pre>
 */
public final class IndexTuple {
  /** sizeof(IndexTupleData): t_tid and t_info, where the key begins (no nulls bitmap). */
  public static final int SIZE_OF_INDEX_TUPLE_DATA = 8;
  /** sizeof(ItemPointerData): a heap TID, as a posting list stores it uncompressed. */
  public static final int SIZE_OF_ITEM_POINTER_DATA = 6;
  /** bi_hi, the high half of ip_blkid. */
  static final int T_TID_BI_HI_OFFSET = 0;
  /** bi_lo, the low half of ip_blkid. */
  static final int T_TID_BI_LO_OFFSET = 2;
  /** ip_posid, an OffsetNumber. */
  static final int T_TID_POSID_OFFSET = 4;
  /** t_info: the tuple's size and flag bits. */
  static final int T_INFO_OFFSET = 6;
  /** INDEX_SIZE_MASK: the bits of t_info holding the tuple's size. */
  static final int INDEX_SIZE_MASK = 0x1FFF;

  private IndexTuple() {}

  /** ip_blkid of the tuple at {@code tuple}: bi_hi &lt;&lt; 16 | bi_lo. */
  static long blockId(byte[] page, int tuple) {
    return (long) LittleEndian.uint16(page, tuple + T_TID_BI_HI_OFFSET) << 16
        | LittleEndian.uint16(page, tuple + T_TID_BI_LO_OFFSET);
  }

  /** ip_posid of the tuple at {@code tuple}. */
  static int posid(byte[] page, int tuple) {
    return LittleEndian.uint16(page, tuple + T_TID_POSID_OFFSET);
  }

  /** t_info of the tuple at {@code tuple}. */
  static int info(byte[] page, int tuple) {
    return LittleEndian.uint16(page, tuple + T_INFO_OFFSET);
  }
}
