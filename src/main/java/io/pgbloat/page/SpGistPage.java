package io.pgbloat.page;

/**
 * An SP-GiST index page and its special space, SpGistPageOpaqueData
 * ({@code src/include/access/spgist_private.h}, the same 13-18), and the state of its tuples:
 * every tuple, inner or leaf, starts with a 32-bit word whose two low bits are its tupstate.
 *
 * <pre>
 * SpGistPageOpaqueData, 8 bytes at pd_special = BLCKSZ - 8:
 * | flags 0 (2) | nRedirection 2 (2) | nPlaceholder 4 (2) | spgist_page_id 6 (2) |
 * </pre>
 */
public final class SpGistPage extends CheckedIndexPage {
  public static final int SIZE_OF_SPGIST_PAGE_OPAQUE_DATA = 8;
  static final int FLAGS_OFFSET = 0;
  /** SPGIST_PAGE_ID. */
  public static final int SPGIST_PAGE_ID = 0xFF82;
  static final int SPGIST_META = 1;
  static final int SPGIST_LEAF = 1 << 2;
  /** tupstate values: the low two bits of a tuple's first word. */
  static final int SPGIST_LIVE = 0;
  static final int SPGIST_REDIRECT = 1;
  static final int SPGIST_DEAD = 2;
  static final int SPGIST_PLACEHOLDER = 3;
  static final int TUPSTATE_MASK = 0x3;
  /** SPGIST_METAPAGE_BLKNO. */
  public static final long SPGIST_METAPAGE_BLKNO = 0;
  /** SPGIST_ROOT_BLKNO: the root of the tree of non-null keys, an inner page once the tree has grown. */
  public static final long SPGIST_ROOT_BLKNO = 1;
  /** SPGIST_NULL_BLKNO: the root of the tree of null keys. */
  public static final long SPGIST_NULL_BLKNO = 2;

  public SpGistPage(PageRules rules) {
    super(rules, SIZE_OF_SPGIST_PAGE_OPAQUE_DATA, SPGIST_PAGE_ID, "SP-GiST", 0);
  }

  @Override
  IndexPageStats countChecked(byte[] page, long block) {
    int flags = LittleEndian.uint16(page, PageHeader.special(page) + FLAGS_OFFSET);
    int gap = IndexPageCounter.gap(page);
    if (((flags & SPGIST_META) != 0) != (block == SPGIST_METAPAGE_BLKNO)) {
      return IndexPageStats.bad(block, String.format("SP-GiST flags 0x%02x at block %d: the metapage is block 0, and only it",
          flags, block));
    }
    if ((flags & SPGIST_META) != 0) {
      return IndexPageStats.of(block, IndexPageKind.META, gap);
    }
    int live = 0, liveBytes = 0, dead = 0, deadBytes = 0, redirects = 0, placeholders = 0;
    for (int off = 1; off <= PageHeader.maxOffsetNumber(page); off++) {
      int word = ItemId.word(page, off);
      if (ItemId.flags(word) != ItemId.LP_NORMAL) {
        continue;
      }
      int length = ItemId.length(word);
      int at = ItemId.offset(word);
      if (length < Integer.BYTES || at + length > PageHeader.special(page)) {
        return IndexPageStats.bad(block, "item " + off + " at " + at + " of " + length + " bytes lies outside the tuple area");
      }
      switch (LittleEndian.int32(page, at) & TUPSTATE_MASK) {
        case SPGIST_LIVE -> {
          live++;
          liveBytes += length;
        }
        case SPGIST_REDIRECT -> redirects++;
        case SPGIST_DEAD -> {
          dead++;
          deadBytes += length;
        }
        case SPGIST_PLACEHOLDER -> placeholders++;
        default -> throw new AssertionError("a two-bit tuple state");
      }
    }
    IndexPageKind kind = (flags & SPGIST_LEAF) != 0 ? IndexPageKind.LEAF : IndexPageKind.INNER;
    return new IndexPageStats(block, kind, live, liveBytes, dead, deadBytes, 0, gap, 0, redirects, placeholders, false, null,
        null);
  }
}
