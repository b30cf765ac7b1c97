package io.pgbloat.page;

/**
 * The fixed header of every heap tuple ({@code src/include/access/htup_details.h}), read in
 * place at the tuple's offset in its page.
 *
 * <pre>
 *  0        4        8             12                18            20           22     23
 * +--------+--------+-------------+-----------------+-------------+------------+------+------
 * | t_xmin | t_xmax | t_cid/t_xvac| t_ctid (6 bytes)| t_infomask2 | t_infomask |t_hoff| t_bits
 * +--------+--------+-------------+-----------------+-------------+------------+------+------
 *                                               ^ - 23 bytes (SizeofHeapTupleHeader) - ^
 * </pre>
 */
public final class HeapTupleHeader {
  /** TransactionId t_xmin: inserting xact ID. */
  public static final int T_XMIN_OFFSET = 0;
  /** TransactionId t_xmax: deleting or locking xact ID (or a MultiXactId). */
  public static final int T_XMAX_OFFSET = 4;
  /** CommandId t_cid, or TransactionId t_xvac (old-style VACUUM FULL xact ID). */
  public static final int T_FIELD3_OFFSET = 8;
  /** ItemPointerData t_ctid: current TID of this or a newer tuple (block hi, block lo, offset). */
  public static final int T_CTID_OFFSET = 12;
  /** uint16 t_infomask2: number of attributes, plus various flags. */
  public static final int T_INFOMASK2_OFFSET = 18;
  /** uint16 t_infomask: various flag bits, see below. */
  public static final int T_INFOMASK_OFFSET = 20;
  /** uint8 t_hoff: sizeof header incl. bitmap, padding. */
  public static final int T_HOFF_OFFSET = 22;
  /** bits8 t_bits[]: bitmap of NULLs, when HEAP_HASNULL. */
  public static final int T_BITS_OFFSET = 23;
  /** SizeofHeapTupleHeader: offsetof(HeapTupleHeaderData, t_bits). */
  public static final int SIZEOF_HEAP_TUPLE_HEADER = 23;

  // t_infomask bits
  /** has null attribute(s). */
  public static final int HEAP_HASNULL = 0x0001;
  /** has variable-width attribute(s). */
  public static final int HEAP_HASVARWIDTH = 0x0002;
  /** has external stored attribute(s). */
  public static final int HEAP_HASEXTERNAL = 0x0004;
  /** has an object-id field (pre-12 only). */
  public static final int HEAP_HASOID_OLD = 0x0008;
  /** xmax is a key-shared locker. */
  public static final int HEAP_XMAX_KEYSHR_LOCK = 0x0010;
  /** t_cid is a combo CID. */
  public static final int HEAP_COMBOCID = 0x0020;
  /** xmax is exclusive locker. */
  public static final int HEAP_XMAX_EXCL_LOCK = 0x0040;
  /** xmax, if valid, is only a locker. */
  public static final int HEAP_XMAX_LOCK_ONLY = 0x0080;
  /** xmax is a shared locker: both lock bits. */
  public static final int HEAP_XMAX_SHR_LOCK = HEAP_XMAX_EXCL_LOCK | HEAP_XMAX_KEYSHR_LOCK;
  /** all lock bits. */
  public static final int HEAP_LOCK_MASK = HEAP_XMAX_SHR_LOCK | HEAP_XMAX_EXCL_LOCK | HEAP_XMAX_KEYSHR_LOCK;
  /** t_xmin committed. */
  public static final int HEAP_XMIN_COMMITTED = 0x0100;
  /** t_xmin invalid/aborted. */
  public static final int HEAP_XMIN_INVALID = 0x0200;
  /** frozen: both xmin bits (since 9.4). */
  public static final int HEAP_XMIN_FROZEN = HEAP_XMIN_COMMITTED | HEAP_XMIN_INVALID;
  /** t_xmax committed. */
  public static final int HEAP_XMAX_COMMITTED = 0x0400;
  /** t_xmax invalid/aborted. */
  public static final int HEAP_XMAX_INVALID = 0x0800;
  /** t_xmax is a MultiXactId. */
  public static final int HEAP_XMAX_IS_MULTI = 0x1000;
  /** this is UPDATEd version of row. */
  public static final int HEAP_UPDATED = 0x2000;
  /** moved to another place by pre-9.0 VACUUM FULL. */
  public static final int HEAP_MOVED_OFF = 0x4000;
  /** moved from another place by pre-9.0 VACUUM FULL. */
  public static final int HEAP_MOVED_IN = 0x8000;
  /** both moved bits. */
  public static final int HEAP_MOVED = HEAP_MOVED_OFF | HEAP_MOVED_IN;

  // t_infomask2 bits
  /** 11 bits for number of attributes. */
  public static final int HEAP_NATTS_MASK = 0x07FF;
  /** tuple was updated and key cols modified, or tuple deleted. */
  public static final int HEAP_KEYS_UPDATED = 0x2000;
  /** tuple was HOT-updated. */
  public static final int HEAP_HOT_UPDATED = 0x4000;
  /** this is heap-only tuple. */
  public static final int HEAP_ONLY_TUPLE = 0x8000;

  /** InvalidBlockNumber ({@code src/include/storage/block.h}). */
  private static final long INVALID_BLOCK_NUMBER = 0xFFFFFFFFL;

  private HeapTupleHeader() {}

  public static int xmin(byte[] page, int tuple) {
    return LittleEndian.int32(page, tuple + T_XMIN_OFFSET);
  }

  public static int xmax(byte[] page, int tuple) {
    return LittleEndian.int32(page, tuple + T_XMAX_OFFSET);
  }

  /**
   * Whether t_ctid points back at the tuple itself, block {@code block} item {@code off}: a
   * tuple deleted, not updated (an update points it at the new version); or at no block, the
   * mark of a row moved to another partition (ItemPointerSetMovedPartitions,
   * {@code src/include/storage/itemptr.h}), which leaves the table as a delete does. t_ctid is
   * an ItemPointerData, laid out as an index tuple's t_tid ({@link IndexTuple}).
   */
  public static boolean ctidIsSelfOrMoved(byte[] page, int tuple, long block, int off) {
    long ctidBlock = IndexTuple.blockId(page, tuple + T_CTID_OFFSET);
    return ctidBlock == INVALID_BLOCK_NUMBER
        || ctidBlock == block && IndexTuple.posid(page, tuple + T_CTID_OFFSET) == off;
  }

  /** t_xvac: meaningful only when HEAP_MOVED is set. */
  public static int xvac(byte[] page, int tuple) {
    return LittleEndian.int32(page, tuple + T_FIELD3_OFFSET);
  }

  public static int infomask(byte[] page, int tuple) {
    return LittleEndian.uint16(page, tuple + T_INFOMASK_OFFSET);
  }

  public static int infomask2(byte[] page, int tuple) {
    return LittleEndian.uint16(page, tuple + T_INFOMASK2_OFFSET);
  }

  public static int hoff(byte[] page, int tuple) {
    return LittleEndian.uint8(page, tuple + T_HOFF_OFFSET);
  }

  public static int natts(byte[] page, int tuple) {
    return infomask2(page, tuple) & HEAP_NATTS_MASK;
  }

  /** HEAP_XMAX_IS_LOCKED_ONLY: xmax only locks the row (or is a pre-9.3 shared lock). */
  public static boolean xmaxIsLockedOnly(int infomask) {
    return (infomask & HEAP_XMAX_LOCK_ONLY) != 0
        || (infomask & (HEAP_XMAX_IS_MULTI | HEAP_LOCK_MASK)) == HEAP_XMAX_EXCL_LOCK;
  }

  /** HeapTupleHeaderXminCommitted: committed hint bit set (frozen counts). */
  public static boolean xminCommitted(int infomask) {
    return (infomask & HEAP_XMIN_COMMITTED) != 0;
  }

  /** HeapTupleHeaderXminInvalid: invalid bit alone (both bits mean frozen). */
  public static boolean xminInvalid(int infomask) {
    return (infomask & (HEAP_XMIN_COMMITTED | HEAP_XMIN_INVALID)) == HEAP_XMIN_INVALID;
  }
}
