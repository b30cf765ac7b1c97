package io.pgbloat.page;

/**
 * The bytes the live entries of one btree leaf would take in a fresh build of the index
 * ({@code src/backend/access/nbtree/nbtsort.c}, _bt_load, the same 13-18): each entry is an
 * {@link IndexTuple} with its line pointer; a build without
 * deduplication writes one tuple per heap TID, a build with it (_bt_sort_dedup_finish_pending,
 * {@code nbtdedup.c} _bt_dedup_save_htid) merges the TIDs of equal keys into posting-list
 * tuples of at most {@link #MAX_POSTING_SIZE} bytes. The leaf's high key is kept as it is.
 *
 * <pre>
 * a posting-list tuple (nbtree.h, INDEX_ALT_TID_MASK set in t_info, BT_IS_POSTING in ip_posid):
 *   | IndexTupleData | key | heap TIDs, 6 bytes each |
 *   ip_blkid = offset of its posting list (MAXALIGNed key size), ip_posid &amp; BT_OFFSET_MASK = its TIDs
 * </pre>
 *
 * Two tuples hold equal keys when their key bytes are equal: the only equality a build
 * deduplicates by (btm_allequalimage, every key column "equal image"), and
 * index_form_tuple zeroes its padding.
 */
public final class BtreeLeafEntries {
  /** INDEX_ALT_TID_MASK: nbtree's use of the AM-reserved t_info bit, t_tid holds other things. */
  static final int INDEX_ALT_TID_MASK = 0x2000;
  /** BT_IS_POSTING: in ip_posid of a tuple with INDEX_ALT_TID_MASK, a posting-list tuple. */
  static final int BT_IS_POSTING = 0x2000;
  /** BT_OFFSET_MASK: in ip_posid of a posting-list tuple, its number of heap TIDs. */
  static final int BT_OFFSET_MASK = 0x0FFF;
  /**
   * The largest posting-list tuple a build writes: MAXALIGN_DOWN(BLCKSZ·10/100) −
   * sizeof(ItemIdData), the room a leaf at fillfactor 90 leaves (nbtsort.c, maxpostingsize).
   */
  public static final int MAX_POSTING_SIZE = PageHeader.maxAlignDown(PageHeader.BLCKSZ * 10 / 100)
      - ItemId.SIZE_OF_ITEM_ID_DATA;
  /** P_HIKEY: a leaf's high key, on every leaf but the rightmost of its level. */
  static final int P_HIKEY = 1;

  /** The most TIDs a run of equal keys holds to count among the {@link Bytes#few} runs. */
  public static final int FEW_TIDS = 3;

  /**
   * @param plain the bytes, line pointers included, with every heap TID in a tuple of its own
   * @param deduplicated the bytes with equal keys' TIDs merged as a build merges them
   * @param tids the heap TIDs of those entries (a posting list's each), the high key not among them
   * @param highKey the bytes of the high key with its line pointer (0 on the rightmost leaf)
   * @param plainRoom the room of build leaves the entries take without deduplication
   *     ({@link BtreeLeafFill#room}, the high key not among them: a build makes its own)
   * @param deduplicatedRoom that with equal keys merged
   * @param single the runs of equal keys of one heap TID
   * @param few those of 2 to {@link #FEW_TIDS}
   * @param many those of more
   * @param decoded false when an item could not be read (its bounds or size are off): the
   *     byte counts are then the leaf's bytes in use as they are, and tids and runs 0
   */
  public record Bytes(int plain, int deduplicated, int tids, int highKey, int plainRoom, int deduplicatedRoom,
      Runs single, Runs few, Runs many, boolean decoded) implements BuildEntries {
    /** A leaf whose items could not be read: its {@code usedBytes} stand in for the byte counts. */
    static Bytes undecoded(int usedBytes, BtreeLeafFill fill) {
      int room = fill.roomOfBytes(usedBytes);
      return new Bytes(usedBytes, usedBytes, 0, 0, room, room, Runs.NONE, Runs.NONE, Runs.NONE, false);
    }
  }

  /**
   * Runs of equal keys, each of which a deduplicating build merges into posting lists.
   *
   * @param runs how many
   * @param keyBytes one plain tuple a run, line pointer in: their bytes were each down to one heap TID
   * @param tids the heap TIDs they hold
   */
  public record Runs(int runs, int keyBytes, int tids) implements java.io.Serializable {
    public static final Runs NONE = new Runs(0, 0, 0);
  }

  private BtreeLeafEntries() {}

  /**
   * The bytes a build would write for the leaf {@code page}'s entries not marked LP_DEAD (a
   * build leaves out what is known dead), its high key included, and the room of leaves a build
   * that fills them as {@code fill} does takes for them; {@code usedBytes} (max_avail less free
   * space) stands in for both when an item is damaged.
   */
  public static Bytes of(byte[] page, boolean rightmost, int usedBytes, BtreeLeafFill fill) {
    int special = PageHeader.special(page);
    int items = PageHeader.maxOffsetNumber(page);
    int plain = 0;
    int deduplicated = 0;
    int allTids = 0;
    int highKey = 0;
    int[][] runs = new int[3][3]; // single, few, many: runs, key bytes, TIDs
    int upper = PageHeader.upper(page);
    int stored = 0;
    int groupStart = -1; // the tuple whose key the pending group holds, or -1
    int groupKeySize = 0;
    int groupTids = 0;
    boolean oneRun = true; // the leaf's entries are all one run of equal keys, which may go on over the next leaves
    BtreeLeafFill.Items plainItems = fill.plainItems();
    BtreeLeafFill.Items deduplicatedItems = fill.deduplicatedItems();
    for (int off = 1; off <= items; off++) {
      int word = ItemId.word(page, off);
      int flags = ItemId.flags(word);
      if (flags != ItemId.LP_NORMAL) {
        continue; // LP_DEAD entries are left out of a build; unused ones hold nothing
      }
      int tuple = ItemId.offset(word);
      if (tuple < PageHeader.SIZE_OF_PAGE_HEADER_DATA || tuple + IndexTuple.SIZE_OF_INDEX_TUPLE_DATA > special) {
        return Bytes.undecoded(usedBytes, fill);
      }
      int info = IndexTuple.info(page, tuple);
      int size = info & IndexTuple.INDEX_SIZE_MASK;
      stored += size;
      // the tuples lie between pd_upper and pd_special, each once: more is line pointers overlapping
      if (size < IndexTuple.SIZE_OF_INDEX_TUPLE_DATA || tuple + size > special || stored > special - upper) {
        return Bytes.undecoded(usedBytes, fill);
      }
      if (!rightmost && off == P_HIKEY) {
        plain += size + ItemId.SIZE_OF_ITEM_ID_DATA;
        deduplicated += size + ItemId.SIZE_OF_ITEM_ID_DATA;
        highKey = size + ItemId.SIZE_OF_ITEM_ID_DATA;
        continue;
      }
      int keySize = size;
      int tids = 1;
      int posid = IndexTuple.posid(page, tuple);
      if ((info & INDEX_ALT_TID_MASK) != 0 && (posid & BT_IS_POSTING) != 0) {
        long offset = IndexTuple.blockId(page, tuple); // the posting list's offset
        tids = posid & BT_OFFSET_MASK;
        if (offset < IndexTuple.SIZE_OF_INDEX_TUPLE_DATA
            || offset + (long) tids * IndexTuple.SIZE_OF_ITEM_POINTER_DATA > size) {
          return Bytes.undecoded(usedBytes, fill);
        }
        keySize = (int) offset;
      }
      plain += tids * (keySize + ItemId.SIZE_OF_ITEM_ID_DATA);
      plainItems.add(keySize, tids, 0);
      allTids += tids;
      if (groupStart >= 0 && groupKeySize == keySize && sameKey(page, groupStart, tuple, keySize)) {
        groupTids += tids;
      } else {
        if (groupStart >= 0) {
          deduplicated += deduplicatedBytes(groupKeySize, groupTids, deduplicatedItems, false);
          addRun(runs, groupKeySize, groupTids);
          oneRun = false;
        }
        groupStart = tuple;
        groupKeySize = keySize;
        groupTids = tids;
      }
    }
    if (groupStart >= 0) {
      deduplicated += deduplicatedBytes(groupKeySize, groupTids, deduplicatedItems, oneRun && !rightmost);
      addRun(runs, groupKeySize, groupTids);
    }
    return new Bytes(plain, deduplicated, allTids, highKey, fill.room(plainItems), fill.room(deduplicatedItems),
        runs(runs[0]), runs(runs[1]), runs(runs[2]), true);
  }

  /** Counts a run of {@code tids} heap TIDs of a key of {@code keySize} among the single, few or many. */
  private static void addRun(int[][] runs, int keySize, int tids) {
    int[] kind = runs[tids == 1 ? 0 : tids <= FEW_TIDS ? 1 : 2];
    kind[0]++;
    kind[1] += keySize + ItemId.SIZE_OF_ITEM_ID_DATA;
    kind[2] += tids;
  }

  private static Runs runs(int[] counts) {
    return new Runs(counts[0], counts[1], counts[2]);
  }

  /** Whether the tuples at {@code a} and {@code b} hold the same key bytes after their header. */
  private static boolean sameKey(byte[] page, int a, int b, int keySize) {
    return java.util.Arrays.equals(page, a + IndexTuple.SIZE_OF_INDEX_TUPLE_DATA, a + keySize,
        page, b + IndexTuple.SIZE_OF_INDEX_TUPLE_DATA, b + keySize);
  }

  /**
   * The bytes of {@code tids} heap TIDs of one key of {@code keySize} (the plain tuple's
   * size) as a build writes them: posting lists of as many TIDs as keep them within
   * {@link #MAX_POSTING_SIZE}, a last single TID as a plain tuple; each with its line pointer.
   * The tuples are added to {@code items}; but where the run is all of a leaf but the rightmost
   * and fills a posting list ({@code spansLeaves}), it goes on over the next leaves, as a long
   * run of NULLs does, and a build writes it in full posting lists across them: its last,
   * partial list is added as the share of a full one its TIDs are.
   */
  static int deduplicatedBytes(int keySize, int tids, BtreeLeafFill.Items items, boolean spansLeaves) {
    int perPosting = (PageHeader.maxAlignDown(MAX_POSTING_SIZE) - keySize) / IndexTuple.SIZE_OF_ITEM_POINTER_DATA;
    if (tids == 1 || perPosting < 2) {
      items.add(keySize, tids, 0);
      return tids * (keySize + ItemId.SIZE_OF_ITEM_ID_DATA);
    }
    int full = tids / perPosting;
    int rest = tids % perPosting;
    int fullSize = posting(keySize, perPosting);
    items.add(fullSize, full, fullSize - keySize);
    int bytes = full * (fullSize + ItemId.SIZE_OF_ITEM_ID_DATA);
    if (spansLeaves && full > 0 && rest > 0) {
      items.addPart(fullSize, rest / (double) perPosting, fullSize - keySize);
      bytes += posting(keySize, rest) + ItemId.SIZE_OF_ITEM_ID_DATA;
    } else if (rest == 1) {
      items.add(keySize, 1, 0);
      bytes += keySize + ItemId.SIZE_OF_ITEM_ID_DATA;
    } else if (rest > 1) {
      int restSize = posting(keySize, rest);
      items.add(restSize, 1, restSize - keySize);
      bytes += restSize + ItemId.SIZE_OF_ITEM_ID_DATA;
    }
    return bytes;
  }

  /** A posting-list tuple's size: MAXALIGN(key + TIDs), as _bt_form_posting makes it. */
  private static int posting(int keySize, int tids) {
    return PageHeader.maxAlign(keySize + tids * IndexTuple.SIZE_OF_ITEM_POINTER_DATA);
  }
}
