package io.pgbloat.page;

/**
 * A BRIN index page ({@code src/include/access/brin_page.h}, the same 13-18): its special space
 * is four uint16, the last the page type, so that the metapage, the range map (revmap) and the
 * summary tuples' pages tell themselves apart.
 *
 * <pre>
 * BrinSpecialSpace, 8 bytes at pd_special = BLCKSZ - 8:  | unused 0 (4) | flags 4 (2) | type 6 (2) |
 * a revmap page: RevmapContents at PageGetContents (24): REVMAP_PAGE_MAXITEMS (1360) ItemPointerData
 * of 6 bytes, the summary tuple of each range, all zero where a range is not summarized
 * </pre>
 */
public final class BrinPage extends CheckedIndexPage {
  public static final int SIZE_OF_BRIN_SPECIAL_SPACE = 8;
  static final int BRIN_PAGETYPE_META = 0xF091;
  static final int BRIN_PAGETYPE_REVMAP = 0xF092;
  static final int BRIN_PAGETYPE_REGULAR = 0xF093;
  /** BRIN_META_MAGIC: brinMagic of BrinMetaPageData, at PageGetContents (24). */
  static final long BRIN_META_MAGIC = 0xA8109CFAL;
  static final int BRIN_META_MAGIC_OFFSET = 0;
  /** lastRevmapPage: the range map is blocks 1 to it. */
  static final int BRIN_META_LAST_REVMAP_PAGE_OFFSET = 12;
  /**
   * A regular page's room for summary tuples and their line pointers: BLCKSZ less the page
   * header and BrinSpecialSpace; brin_doinsert adds a tuple while PageGetFreeSpace holds it.
   */
  public static final int REGULAR_PAGE_ROOM = PageHeader.BLCKSZ - PageHeader.PAGE_CONTENTS - SIZE_OF_BRIN_SPECIAL_SPACE;
  /** REVMAP_PAGE_MAXITEMS: (BLCKSZ - 24 - 8) / sizeof(ItemPointerData). */
  public static final int REVMAP_PAGE_MAXITEMS = 1360;

  public BrinPage(PageRules rules) {
    super(rules, SIZE_OF_BRIN_SPECIAL_SPACE, -1, "BRIN", 0);
  }

  @Override
  IndexPageStats countChecked(byte[] page, long block) {
    int type = LittleEndian.uint16(page, PageHeader.BLCKSZ - 2);
    int gap = IndexPageCounter.gap(page);
    if ((type == BRIN_PAGETYPE_META) != (block == 0)) {
      return IndexPageStats.bad(block, String.format("BRIN page type 0x%04x at block %d: the metapage is block 0, and only it",
          type, block));
    }
    return switch (type) {
      case BRIN_PAGETYPE_META -> IndexPageStats.of(block, IndexPageKind.META, gap);
      case BRIN_PAGETYPE_REVMAP -> new IndexPageStats(block, IndexPageKind.REVMAP, 0, 0, 0, 0, 0, gap,
          summarizedRanges(page), 0, 0, false, null, null);
      case BRIN_PAGETYPE_REGULAR -> regular(page, block, gap);
      default -> IndexPageStats.bad(block, String.format("BRIN page type 0x%04x is none of 0x%04x, 0x%04x, 0x%04x", type,
          BRIN_PAGETYPE_META, BRIN_PAGETYPE_REVMAP, BRIN_PAGETYPE_REGULAR));
    };
  }

  /** The range map's last block (it is blocks 1 to it), or 0 when {@code meta} is no BRIN metapage. */
  public static long lastRevmapPage(byte[] meta) {
    int contents = PageHeader.PAGE_CONTENTS;
    if (LittleEndian.uint32(meta, contents + BRIN_META_MAGIC_OFFSET) != BRIN_META_MAGIC) {
      return 0;
    }
    return LittleEndian.uint32(meta, contents + BRIN_META_LAST_REVMAP_PAGE_OFFSET);
  }

  private static IndexPageStats regular(byte[] page, long block, int gap) {
    int tuples = 0, bytes = 0;
    for (int off = 1; off <= PageHeader.maxOffsetNumber(page); off++) {
      int word = ItemId.word(page, off);
      if (ItemId.flags(word) == ItemId.LP_NORMAL) {
        tuples++;
        bytes += ItemId.length(word);
      }
    }
    return new IndexPageStats(block, IndexPageKind.REGULAR, tuples, bytes, 0, 0, 0, gap, 0, 0, 0, false, null, null);
  }

  /** The revmap entries that point to a summary tuple (not all zero). */
  private static int summarizedRanges(byte[] page) {
    int summarized = 0;
    for (int i = 0; i < REVMAP_PAGE_MAXITEMS; i++) {
      int at = PageHeader.PAGE_CONTENTS + i * IndexTuple.SIZE_OF_ITEM_POINTER_DATA;
      if (LittleEndian.int32(page, at) != 0 || LittleEndian.uint16(page, at + 4) != 0) {
        summarized++;
      }
    }
    return summarized;
  }
}
