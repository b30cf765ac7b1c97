package io.pgbloat.page;

/**
 * A btree index page, and its special space, BTPageOpaqueData
 * ({@code src/include/access/nbtree.h}); counted the way {@code pgstatindex_impl} in
 * {@code contrib/pgstattuple/pgstatindex.c} counts it (the same in 13-18 but for the
 * free-space rule, {@link FreeSpaceRule}).
 *
 * <pre>
 * +----------------+-------------------------------------------+
 * | PageHeaderData | linp1 linp2 ... (pivot or leaf tuples)     |
 * +----------------+-------------------------------------------+
 * |          ... index tuples ...   | BTPageOpaqueData (16)    |
 * +---------------------------------+--------------------------+
 *                                   ^ pd_special = BLCKSZ - 16
 *
 * BTPageOpaqueData, offsets from pd_special:
 * +-----------+-----------+------------+------------+--------------+
 * | btpo_prev | btpo_next | btpo_level | btpo_flags | btpo_cycleid |
 * |  0 (4)    |  4 (4)    |  8 (4)     | 12 (2)     | 14 (2)       |
 * +-----------+-----------+------------+------------+--------------+
 * </pre>
 *
 * <p>A page is counted only after it passes {@link PageVerifier} (header and checksum, as
 * ReadBuffer checks it) and the btree checks below; otherwise it is a bad page with a reason,
 * and nothing here throws for what a page contains.
 */
public final class BtreePage implements IndexPageCounter {
  /** BlockNumber btpo_prev: left sibling, or P_NONE if leftmost. */
  public static final int BTPO_PREV_OFFSET = 0;
  /** BlockNumber btpo_next: right sibling, or P_NONE if rightmost. */
  public static final int BTPO_NEXT_OFFSET = 4;
  /** uint32 btpo_level: tree level, zero for leaf pages (a union with a 32-bit xid before PG 14). */
  public static final int BTPO_LEVEL_OFFSET = 8;
  /** uint16 btpo_flags: the BTP_* flag bits below. */
  public static final int BTPO_FLAGS_OFFSET = 12;
  /** BTCycleId btpo_cycleid: vacuum cycle ID of the latest split. */
  public static final int BTPO_CYCLEID_OFFSET = 14;
  /** sizeof(BTPageOpaqueData). */
  public static final int SIZE_OF_BT_PAGE_OPAQUE_DATA = 16;
  /* ^ - 16 bytes - ^ */

  /** The only pd_special a btree page can have: BLCKSZ - MAXALIGN(sizeof(BTPageOpaqueData)). */
  public static final int BTREE_PD_SPECIAL = PageHeader.BLCKSZ - PageHeader.maxAlign(SIZE_OF_BT_PAGE_OPAQUE_DATA);

  /** BTP_LEAF: leaf page, i.e. not internal page. */
  public static final int BTP_LEAF = 0x0001;
  /** BTP_ROOT: root page (has no parent). */
  public static final int BTP_ROOT = 0x0002;
  /** BTP_DELETED: page has been deleted from tree. */
  public static final int BTP_DELETED = 0x0004;
  /** BTP_META: meta-page (block 0 only). */
  public static final int BTP_META = 0x0008;
  /** BTP_HALF_DEAD: empty, but still in tree. */
  public static final int BTP_HALF_DEAD = 0x0010;
  /** BTP_SPLIT_END: rightmost page of split group. */
  public static final int BTP_SPLIT_END = 0x0020;
  /** BTP_HAS_GARBAGE: page has LP_DEAD tuples (deprecated). */
  public static final int BTP_HAS_GARBAGE = 0x0040;
  /** BTP_INCOMPLETE_SPLIT: right sibling's downlink is missing. */
  public static final int BTP_INCOMPLETE_SPLIT = 0x0080;
  /** BTP_HAS_FULLXID: contains BTDeletedPageData (PG 14 and later). */
  public static final int BTP_HAS_FULLXID = 0x0100;
  /** OR of every btpo_flags bit PostgreSQL 14-18 defines (13 lacks BTP_HAS_FULLXID); any other bit means a damaged page. */
  public static final int BTP_VALID_FLAG_BITS = 0x01FF;

  /** MAX_BT_CYCLE_ID: cycle IDs stay below 0xFF80, so the last two bytes can tell index types apart. */
  public static final int MAX_BT_CYCLE_ID = 0xFF7F;
  /** P_NONE: "no page", a sibling link's value at either end of a level (block 0 is the metapage). */
  public static final long P_NONE = 0;
  /** BTREE_METAPAGE: the block number of the metapage. */
  public static final long BTREE_METAPAGE = 0;
  /**
   * pgstatindex's max_avail of a page: BLCKSZ - (BLCKSZ - pd_special + SizeOfPageHeaderData),
   * the same on every btree page, whose pd_special is {@link #BTREE_PD_SPECIAL}.
   */
  public static final int MAX_AVAIL = BTREE_PD_SPECIAL - PageHeader.SIZE_OF_PAGE_HEADER_DATA;

  private final PageVerifier verifier;
  private final FreeSpaceRule freeSpace;
  private final BtreeLeafFill fill;

  /**
   * @param rules the header, checksum and free-space rules of this cluster; one per thread
   * @param fillfactor the index's, to which a build would fill the leaves again
   */
  public BtreePage(PageRules rules, int fillfactor) {
    this.verifier = rules.verifier();
    this.freeSpace = rules.freeSpace();
    this.fill = new BtreeLeafFill(fillfactor);
  }

  public static long prev(byte[] page) {
    return LittleEndian.uint32(page, PageHeader.special(page) + BTPO_PREV_OFFSET);
  }

  public static long next(byte[] page) {
    return LittleEndian.uint32(page, PageHeader.special(page) + BTPO_NEXT_OFFSET);
  }

  public static long level(byte[] page) {
    return LittleEndian.uint32(page, PageHeader.special(page) + BTPO_LEVEL_OFFSET);
  }

  public static int flags(byte[] page) {
    return LittleEndian.uint16(page, PageHeader.special(page) + BTPO_FLAGS_OFFSET);
  }

  public static int cycleId(byte[] page) {
    return LittleEndian.uint16(page, PageHeader.special(page) + BTPO_CYCLEID_OFFSET);
  }

  /**
   * Counts {@code page}, found at {@code block} of its index. Block 0 is the metapage: checked
   * as {@code _bt_getmeta} checks it, and counted as nothing (pgstatindex scans from block 1).
   * Never throws for a bad page: the problem is in the result.
   */
  @Override
  public IndexPageStats count(byte[] page, long block) {
    String insane = verifier.check(page, block);
    if (insane != null) {
      return IndexPageStats.bad(block, insane);
    }
    if (PageHeader.isNew(page)) {
      // pgstatindex (13-18) does not test PageIsNew: it reads the opaque data at pd_special = 0,
      // that is the zeros of the page header, so btpo_flags is 0 and the page counts as internal.
      return block == BTREE_METAPAGE ? IndexPageStats.bad(block, "block 0 is all zero: the metapage was never written")
          : IndexPageStats.of(block, IndexPageKind.NEW, 0);
    }
    String wrong = problem(page, block);
    if (wrong != null) {
      return IndexPageStats.bad(block, wrong);
    }
    return block == BTREE_METAPAGE ? IndexPageStats.of(block, IndexPageKind.META, IndexPageCounter.gap(page))
        : decoded(page, block);
  }

  /**
   * A btree page's counts under two free-space rules differ in its free space alone, and on a
   * leaf whose items could not be read in the bytes in use that stand in for its build: derived
   * from {@code counted}, not read again.
   */
  @Override
  public IndexPageStats recount(IndexPageStats counted, byte[] page, long block) {
    if (counted.isBad() || counted.kind() == IndexPageKind.META || counted.kind() == IndexPageKind.NEW) {
      return counted; // nothing decoded that a rule measures
    }
    int free = freeSpace.indexPage(page);
    BuildEntries build = counted.build() instanceof BtreeLeafEntries.Bytes b && !b.decoded()
        ? BtreeLeafEntries.Bytes.undecoded(MAX_AVAIL - free, fill) : counted.build();
    return counted.withFreeSpace(free, build);
  }

  /** Why a sound page that is not all zero is no btree page at {@code block}, or null. */
  private static String problem(byte[] page, long block) {
    int special = PageHeader.special(page);
    if (special != BTREE_PD_SPECIAL) {
      return "pd_special " + special + ", expected " + BTREE_PD_SPECIAL
          + " (BLCKSZ - MAXALIGN(sizeof(BTPageOpaqueData))) on a btree page";
    }
    int flags = flags(page);
    if ((flags & ~BTP_VALID_FLAG_BITS) != 0) {
      return String.format("btpo_flags 0x%04x has bits outside 0x%04x", flags, BTP_VALID_FLAG_BITS);
    }
    int cycleId = cycleId(page);
    if (cycleId > MAX_BT_CYCLE_ID) {
      return String.format("btpo_cycleid 0x%04x is above MAX_BT_CYCLE_ID 0x%04x", cycleId, MAX_BT_CYCLE_ID);
    }
    if (block == BTREE_METAPAGE) {
      return (flags & BTP_META) != 0 ? BtreeMetaPage.problem(page)
          : String.format("block 0 lacks BTP_META (btpo_flags 0x%04x): not a btree metapage", flags);
    }
    if ((flags & BTP_META) != 0) {
      return "BTP_META is set on block " + block + "; only block 0 is a metapage";
    }
    boolean leaf = (flags & BTP_LEAF) != 0;
    long level = level(page);
    // nbtree.h: "the BTP_LEAF flag bit is redundant since level==0 could be tested instead".
    // Not for deleted pages: before PG 14 btpo_level was a union holding their xid.
    if ((flags & BTP_DELETED) == 0 && leaf != (level == 0)) {
      return "btpo_level " + level + " contradicts BTP_LEAF " + (leaf ? "set" : "clear");
    }
    return null;
  }

  /**
   * The root of the tree block 0 describes (btm_root), or -1 when block 0 is no sound btree
   * metapage (after {@link PageVerifier}) or the index is empty.
   */
  public static long root(byte[] meta) {
    if (PageHeader.isNew(meta) || problem(meta, BTREE_METAPAGE) != null) {
      return -1;
    }
    long root = BtreeMetaPage.read(meta).rootBlockNo();
    return root == P_NONE ? -1 : root;
  }

  /**
   * The page after {@code page} on the path from the root down the right end of every level:
   * its right sibling where it has one (a page splits before its parent gets the new
   * downlink, so for a while a level ends further right), else, on an inner page, the child its
   * last item links to (BTreeTupleGetDownLink: the t_tid block, {@code nbtree.h}; the page at
   * a level's right end has no high key, so its last item is a pivot). -1 at the leaf ending
   * the leaf level, and on a page that fails the btree checks or whose last item cannot be read.
   */
  public static long nextOnRightmostPath(byte[] page, long block) {
    if (PageHeader.isNew(page) || problem(page, block) != null) {
      return -1;
    }
    if (next(page) != P_NONE) {
      return next(page);
    }
    int last = PageHeader.maxOffsetNumber(page);
    if ((flags(page) & (BTP_LEAF | BTP_DELETED | BTP_HALF_DEAD)) != 0 || last < 1) {
      return -1;
    }
    int word = ItemId.word(page, last);
    int tuple = ItemId.offset(word);
    boolean readable = ItemId.flags(word) == ItemId.LP_NORMAL && ItemId.length(word) >= IndexTuple.SIZE_OF_INDEX_TUPLE_DATA
        && tuple >= PageHeader.SIZE_OF_PAGE_HEADER_DATA && tuple + ItemId.length(word) <= PageHeader.special(page);
    return readable ? IndexTuple.blockId(page, tuple) : -1;
  }

  /** A sound page after the metapage, counted as pgstatindex_impl counts it. */
  private IndexPageStats decoded(byte[] page, long block) {
    int flags = flags(page);
    int free = freeSpace.indexPage(page);
    // pgstatindex_impl: the order of the tests decides: deleted, then P_IGNORE (which is
    // deleted or half-dead, so half-dead here), then leaf, and everything else is internal.
    IndexPageKind kind = (flags & BTP_DELETED) != 0 ? IndexPageKind.DELETED
        : (flags & BTP_HALF_DEAD) != 0 ? IndexPageKind.HALF_DEAD
        : (flags & BTP_LEAF) != 0 ? IndexPageKind.LEAF
        : IndexPageKind.INNER;
    int gap = IndexPageCounter.gap(page);
    if (kind != IndexPageKind.LEAF) {
      return new IndexPageStats(block, kind, 0, 0, 0, 0, free, gap, 0, 0, 0, false, null, null);
    }
    long next = next(page);
    // "If the next leaf is on an earlier block, it means a fragmentation."
    boolean fragment = next != P_NONE && next < block;
    BtreeLeafEntries.Bytes build = BtreeLeafEntries.of(page, next == P_NONE, MAX_AVAIL - free, fill);
    return new IndexPageStats(block, kind, 0, 0, 0, 0, free, gap, build.tids(), 0, 0, fragment, build, null);
  }
}
