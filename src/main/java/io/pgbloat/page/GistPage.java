package io.pgbloat.page;

/**
 * A GiST index page and its special space, GISTPageOpaqueData
 * ({@code src/include/access/gist.h}, the same 13-18), counted as pgstattuple
 * ({@code pgstat_gist_page}) counts it: a leaf page's line pointers all, an inner page
 * nothing. A deleted page keeps F_LEAF and holds its 8-byte deletion xid where line pointers
 * would be (pd_lower 32), and pgstattuple, which does not test F_DELETED, reads that as two
 * line pointers: so does this.
 *
 * <pre>
 * GISTPageOpaqueData, 16 bytes at pd_special = BLCKSZ - 16:
 * | nsn 0 (8: xlogid, xrecoff) | rightlink 8 (4) | flags 12 (2) | gist_page_id 14 (2) |
 * </pre>
 */
public final class GistPage extends CheckedIndexPage {
  public static final int SIZE_OF_GIST_PAGE_OPAQUE_DATA = 16;
  static final int FLAGS_OFFSET = 12;
  /** GIST_PAGE_ID. */
  public static final int GIST_PAGE_ID = 0xFF81;
  static final int F_LEAF = 1;
  static final int F_DELETED = 1 << 1;

  public GistPage(PageRules rules) {
    super(rules, SIZE_OF_GIST_PAGE_OPAQUE_DATA, GIST_PAGE_ID, "GiST", PageHeader.BLCKSZ);
  }

  @Override
  IndexPageStats countChecked(byte[] page, long block) {
    int flags = LittleEndian.uint16(page, PageHeader.special(page) + FLAGS_OFFSET);
    if ((flags & F_LEAF) == 0) {
      return IndexPageStats.of(block, IndexPageKind.INNER, IndexPageCounter.gap(page));
    }
    IndexPageKind kind = (flags & F_DELETED) != 0 ? IndexPageKind.DELETED : IndexPageKind.LEAF;
    return IndexPageCounter.pgstattupleItems(page, block, kind, 1, freeSpace());
  }
}
