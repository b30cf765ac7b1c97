package io.pgbloat.page;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A GIN index page and its special space, GinPageOpaqueData
 * ({@code src/include/access/ginblock.h}, the same 13-18), classified by its flags as
 * ginfast.c, gindatapage.c and ginentrypage.c set them: the metapage, deleted pages, the
 * pending list, posting-tree and entry-tree pages. There is no page id: the special size (8)
 * and flags that make sense are all a GIN page has.
 *
 * <pre>
 * GinPageOpaqueData, 8 bytes at pd_special = BLCKSZ - 8:
 * | rightlink 0 (4) | maxoff 4 (2) | flags 6 (2) |
 *
 * a compressed posting-tree leaf (flags DATA | LEAF | COMPRESSED):
 * | PageHeaderData | right bound ItemPointerData (6), MAXALIGNed | GinPostingList ... | pd_lower ... | special |
 *   0                24                                           32
 * GinPostingList: | ItemPointerData first 0 (6) | uint16 nbytes 6 | varbyte deltas 8 (nbytes) | SHORTALIGN
 * </pre>
 */
public final class GinPage extends CheckedIndexPage {
  public static final int SIZE_OF_GIN_PAGE_OPAQUE_DATA = 8;
  static final int MAXOFF_OFFSET = 4;
  static final int FLAGS_OFFSET = 6;
  static final int GIN_DATA = 0x01;
  static final int GIN_LEAF = 0x02;
  static final int GIN_DELETED = 0x04;
  static final int GIN_META = 0x08;
  static final int GIN_LIST = 0x10;
  static final int GIN_COMPRESSED = 0x80;
  /** Where a posting-tree page's data starts: PageGetContents + MAXALIGN(sizeof(ItemPointerData)). */
  static final int DATA_PAGE_CONTENTS = PageHeader.PAGE_CONTENTS + 8;
  /** GinDataPageMaxDataSize: the posting lists a posting-tree leaf holds at most. */
  public static final int GIN_DATA_PAGE_MAX_DATA_SIZE = PageHeader.BLCKSZ - DATA_PAGE_CONTENTS
      - PageHeader.maxAlign(SIZE_OF_GIN_PAGE_OPAQUE_DATA);
  /**
   * GinMaxItemSize ({@code ginblock.h}): the largest entry tuple, so that three fit a page;
   * a key's posting list is kept inline when its tuple stays within it.
   */
  public static final int GIN_MAX_ITEM_SIZE = PageHeader.maxAlignDown((PageHeader.BLCKSZ
      - PageHeader.maxAlign(PageHeader.SIZE_OF_PAGE_HEADER_DATA + 3 * ItemId.SIZE_OF_ITEM_ID_DATA)
      - PageHeader.maxAlign(SIZE_OF_GIN_PAGE_OPAQUE_DATA)) / 3);
  /** An entry-tree page's room for tuples and line pointers: BLCKSZ less the header and special space. */
  public static final int ENTRY_PAGE_ROOM = PageHeader.BLCKSZ - PageHeader.PAGE_CONTENTS
      - PageHeader.maxAlign(SIZE_OF_GIN_PAGE_OPAQUE_DATA);
  static final int POSTING_LIST_HEADER = 8;
  static final int POSTING_LIST_NBYTES_OFFSET = 6;
  /** GIN_TREE_POSTING: an entry tuple's ip_posid when its heap pointers are in a posting tree. */
  static final int GIN_TREE_POSTING = 0xFFFF;
  /** GIN_ITUP_COMPRESSED: in an entry tuple's ip_blkid, its inline posting list is compressed (9.4 on). */
  static final long GIN_ITUP_COMPRESSED = 1L << 31;
  /** GIN_METAPAGE_BLKNO. */
  public static final long GIN_METAPAGE_BLKNO = 0;
  /**
   * GIN_ROOT_BLKNO: the entry tree's root, at a fixed block whatever the tree's height (a root
   * split moves both halves to new pages and leaves the root where it was, {@code ginbtree.c}).
   */
  public static final long GIN_ROOT_BLKNO = 1;

  /** InvalidBlockNumber: the end of a page chain. */
  static final long INVALID_BLOCK_NUMBER = 0xFFFFFFFFL;
  static final int RIGHTLINK_OFFSET = 0;

  // GinMetaPageData at PageGetContents (24), offsets from there
  static final int GIN_META_HEAD_OFFSET = 0;                   // BlockNumber head of the pending list
  static final int GIN_META_N_PENDING_PAGES_OFFSET = 12;       // BlockNumber nPendingPages
  static final int GIN_META_N_PENDING_HEAP_TUPLES_OFFSET = 16; // int64 nPendingHeapTuples
  static final int GIN_META_VERSION_OFFSET = 48;               // int32 ginVersion

  public GinPage(PageRules rules) {
    super(rules, SIZE_OF_GIN_PAGE_OPAQUE_DATA, -1, "GIN", 0);
  }

  @Override
  IndexPageStats countChecked(byte[] page, long block) {
    int special = PageHeader.special(page);
    int flags = LittleEndian.uint16(page, special + FLAGS_OFFSET);
    int maxoff = LittleEndian.uint16(page, special + MAXOFF_OFFSET);
    int gap = IndexPageCounter.gap(page);
    if ((flags & GIN_META) != 0 || block == GIN_METAPAGE_BLKNO) {
      return flags == GIN_META && block == GIN_METAPAGE_BLKNO ? IndexPageStats.of(block, IndexPageKind.META, gap)
          : IndexPageStats.bad(block, String.format("GIN flags 0x%02x at block %d: the metapage is block 0, and only it",
              flags, block));
    }
    if ((flags & GIN_DELETED) != 0) {
      return IndexPageStats.of(block, IndexPageKind.DELETED, gap);
    }
    if ((flags & GIN_LIST) != 0) {
      // maxoff of a pending-list page: the heap tuples whose entries it holds
      Tuples t = tuples(page, false);
      return new IndexPageStats(block, IndexPageKind.PENDING, t.live, t.bytes, 0, 0, 0, gap, maxoff, 0, 0, false, t.build, null);
    }
    if ((flags & GIN_DATA) != 0) {
      if ((flags & GIN_LEAF) == 0) {
        return new IndexPageStats(block, IndexPageKind.POSTING_INNER, maxoff, 0, 0, 0, 0, gap, 0, 0, 0, false, null, null);
      }
      if ((flags & GIN_COMPRESSED) == 0) {
        // a version-1 leaf (before 9.4, kept by pg_upgrade): maxoff raw item pointers
        return new IndexPageStats(block, IndexPageKind.POSTING_LEAF, 0, 0, 0, 0, 0, gap, maxoff, 0, 0, false,
            new GinTuples(0, maxoff * IndexTuple.SIZE_OF_ITEM_POINTER_DATA, 0, 0, 0, false, false), null);
      }
      return postingLeaf(page, block, gap);
    }
    IndexPageKind kind = (flags & GIN_LEAF) != 0 ? IndexPageKind.ENTRY_LEAF : IndexPageKind.ENTRY_INNER;
    boolean leaf = kind == IndexPageKind.ENTRY_LEAF;
    Tuples t = tuples(page, leaf);
    return new IndexPageStats(block, kind, t.live, t.bytes, 0, 0, 0, gap, t.build.inlineHeapPointers(), 0, 0, false,
        t.build, null);
  }

  /** The posting lists of a compressed leaf, between the page's data start and pd_lower. */
  private static IndexPageStats postingLeaf(byte[] page, long block, int gap) {
    int end = PageHeader.lower(page);
    int at = DATA_PAGE_CONTENTS;
    int segments = 0;
    int items = 0;
    while (at + POSTING_LIST_HEADER <= end) {
      int nbytes = LittleEndian.uint16(page, at + POSTING_LIST_NBYTES_OFFSET);
      int data = at + POSTING_LIST_HEADER;
      if (data + nbytes > end) {
        return IndexPageStats.bad(block, "posting list at " + at + " of " + nbytes + " bytes runs past pd_lower " + end);
      }
      items += 1 + varbyteIntegers(page, data, nbytes); // the first item, then one delta per integer
      segments++;
      at = data + ((nbytes + 1) & ~1); // SHORTALIGN
    }
    return new IndexPageStats(block, IndexPageKind.POSTING_LEAF, segments, 0, 0, 0, 0, gap, items, 0, 0, false,
        new GinTuples(0, at - DATA_PAGE_CONTENTS, 0, 0, 0, rightlink(page) < 0,
            rightlink(page) < 0 && at - DATA_PAGE_CONTENTS + IndexTuple.SIZE_OF_INDEX_TUPLE_DATA <= GIN_MAX_ITEM_SIZE), null);
  }

  /**
   * Integers in a varbyte run (ginpostinglist.c): little-endian groups of seven bits, the high
   * bit set on every byte but an integer's last (the seventh byte of one uses all eight bits).
   */
  static int varbyteIntegers(byte[] page, int from, int length) {
    int count = 0;
    int inInteger = 0;
    for (int i = from; i < from + length; i++) {
      inInteger++;
      if ((page[i] & 0x80) == 0 || inInteger == 7) {
        count++;
        inInteger = 0;
      }
    }
    return count;
  }

  /**
   * The index tuples in use on an entry-tree or pending-list page: their count, their lp_len,
   * and what a build would write again of them.
   */
  private record Tuples(int live, int bytes, GinTuples build) {}

  /**
   * The tuples of {@code page}; on an entry leaf ({@code leaf}) each one's t_tid says where its
   * heap pointers are: ip_posid GIN_TREE_POSTING, a posting tree; else ip_posid of them inline,
   * from GinGetPostingOffset (ip_blkid less GIN_ITUP_COMPRESSED) to the tuple's end. A tuple
   * reaching past pd_special is counted as in use, not as what a build writes again.
   */
  private static Tuples tuples(byte[] page, boolean leaf) {
    int special = PageHeader.special(page);
    int live = 0, bytes = 0, kept = 0, space = 0, trees = 0, inline = 0, postingBytes = 0;
    for (int off = 1; off <= PageHeader.maxOffsetNumber(page); off++) {
      int word = ItemId.word(page, off);
      if (ItemId.flags(word) != ItemId.LP_NORMAL) {
        continue;
      }
      int length = ItemId.length(word);
      int tuple = ItemId.offset(word);
      live++;
      bytes += length;
      if (length < IndexTuple.SIZE_OF_INDEX_TUPLE_DATA || tuple + length > special) {
        continue; // damaged: nothing a build would write
      }
      int room = PageHeader.maxAlign(length) + ItemId.SIZE_OF_ITEM_ID_DATA;
      if (leaf) {
        int posid = IndexTuple.posid(page, tuple);
        if (posid == GIN_TREE_POSTING) {
          trees++;
        } else if (posid > 0) {
          inline += posid;
          long blkid = IndexTuple.blockId(page, tuple);
          long offset = blkid & ~GIN_ITUP_COMPRESSED;
          if ((blkid & GIN_ITUP_COMPRESSED) != 0 && offset >= IndexTuple.SIZE_OF_INDEX_TUPLE_DATA && offset <= length) {
            postingBytes += length - (int) offset;
          }
        } else {
          continue; // a key VACUUM has left with no heap pointer: a build does not write it
        }
      }
      kept++;
      space += room;
    }
    return new Tuples(live, bytes, new GinTuples(kept, space, trees, inline, postingBytes, false, false));
  }

  /**
   * The keys of a pending-list page's tuples: each tuple's bytes after its t_tid (which holds
   * the heap pointer), t_info and the key (attribute number and null category in), so that
   * equal keys give equal bytes; a tuple reaching past pd_special is left out.
   */
  public static List<ByteBuffer> pendingKeys(byte[] page) {
    int special = PageHeader.special(page);
    List<ByteBuffer> keys = new ArrayList<>();
    for (int off = 1; off <= PageHeader.maxOffsetNumber(page); off++) {
      int word = ItemId.word(page, off);
      int length = ItemId.length(word);
      int tuple = ItemId.offset(word);
      if (ItemId.flags(word) == ItemId.LP_NORMAL && length >= IndexTuple.SIZE_OF_INDEX_TUPLE_DATA
          && tuple + length <= special) {
        keys.add(ByteBuffer.wrap(java.util.Arrays.copyOfRange(page, tuple + IndexTuple.T_INFO_OFFSET, tuple + length)));
      }
    }
    return keys;
  }

  /** The room a key of {@link #pendingKeys} takes as an entry tuple of no heap pointer: its tuple MAXALIGNed and a line pointer. */
  public static int pendingKeyRoom(ByteBuffer key) {
    return PageHeader.maxAlign(key.remaining() + IndexTuple.T_INFO_OFFSET) + ItemId.SIZE_OF_ITEM_ID_DATA;
  }

  /**
   * The first page of the pending list the metapage {@code meta} names, or -1 when the list
   * is empty (InvalidBlockNumber).
   */
  public static long pendingListHead(byte[] meta) {
    long head = LittleEndian.uint32(meta, PageHeader.PAGE_CONTENTS + GIN_META_HEAD_OFFSET);
    return head == INVALID_BLOCK_NUMBER ? -1 : head;
  }

  /** Whether {@code page} is a page of the pending list: GIN_LIST, and neither meta nor deleted (a list page cleaned up). */
  public static boolean isPendingListPage(byte[] page) {
    int flags = LittleEndian.uint16(page, PageHeader.special(page) + FLAGS_OFFSET);
    return (flags & GIN_LIST) != 0 && (flags & (GIN_META | GIN_DELETED)) == 0;
  }

  /** Whether {@code page} is an inner page of the entry tree: none of the data, leaf, list, meta and deleted flags. */
  public static boolean isEntryInner(byte[] page) {
    int flags = LittleEndian.uint16(page, PageHeader.special(page) + FLAGS_OFFSET);
    return (flags & (GIN_DATA | GIN_LEAF | GIN_LIST | GIN_META | GIN_DELETED)) == 0;
  }

  /**
   * The children of an entry-tree inner page: each tuple's t_tid block number
   * (GinGetDownlink, {@code ginblock.h}), in the page's order; tuples reaching past pd_special
   * are left out.
   */
  public static long[] entryDownlinks(byte[] page) {
    int special = PageHeader.special(page);
    java.util.List<Long> children = new java.util.ArrayList<>();
    for (int off = 1; off <= PageHeader.maxOffsetNumber(page); off++) {
      int word = ItemId.word(page, off);
      int tuple = ItemId.offset(word);
      if (ItemId.flags(word) == ItemId.LP_NORMAL && ItemId.length(word) >= IndexTuple.SIZE_OF_INDEX_TUPLE_DATA
          && tuple + ItemId.length(word) <= special) {
        children.add(IndexTuple.blockId(page, tuple));
      }
    }
    return children.stream().mapToLong(Long::longValue).toArray();
  }

  /** The next page of a pending-list (or any GIN) page's chain, or -1 at its end. */
  public static long rightlink(byte[] page) {
    long next = LittleEndian.uint32(page, PageHeader.special(page) + RIGHTLINK_OFFSET);
    return next == INVALID_BLOCK_NUMBER ? -1 : next;
  }

  /**
   * pgstatginindex's figures from the metapage (which it reads with no check at all).
   *
   * @return {version, pending_pages, pending_tuples}
   */
  public static long[] metapage(byte[] page) {
    int contents = PageHeader.PAGE_CONTENTS;
    return new long[] {LittleEndian.int32(page, contents + GIN_META_VERSION_OFFSET),
        LittleEndian.uint32(page, contents + GIN_META_N_PENDING_PAGES_OFFSET),
        LittleEndian.int64(page, contents + GIN_META_N_PENDING_HEAP_TUPLES_OFFSET)};
  }
}
