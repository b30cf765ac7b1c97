package io.pgbloat.page;

/**
 * What a page's special space says of the relation it belongs to, as pg_filedump reads it: a
 * heap page has none ({@code pd_special = BLCKSZ}); every core index access method puts its
 * opaque data there, and the last two bytes of that tell the methods whose special spaces are
 * the same size apart. PostgreSQL keeps them apart on purpose: {@code src/include/access/nbtree.h}
 * (MAX_BT_CYCLE_ID: a btree's btpo_cycleid stays below 0xFF80 so the ids above it can mark
 * other methods' pages), {@code hash.h} (HASHO_PAGE_ID), {@code gist.h} (GIST_PAGE_ID),
 * {@code spgist_private.h} (SPGIST_PAGE_ID), {@code brin_page.h} (the BRIN page types).
 *
 * <pre>
 * special size 16: btree BTPageOpaqueData, hash HashPageOpaqueData, gist GISTPageOpaqueData
 *                  | ... | last uint16: btpo_cycleid &lt;= 0xFF7F | 0xFF80 hash | 0xFF81 gist |
 * special size 8:  gin GinPageOpaqueData, spgist SpGistPageOpaqueData, brin BrinSpecialSpace
 *                  | ... | last uint16: gin flags (&lt; 0x100) | 0xFF82 spgist | 0xF091-0xF093 brin |
 * </pre>
 *
 * A page that reads as none of them (damage) names no method, and one may read as another's (a
 * sequence's 8 bytes of special space end in zeros, as a GIN page's flags may): the catalog
 * still decides, a reader only checks it against this.
 */
public final class SpecialSpace {
  /** GIN's page flags (gin_private.h, GIN_DATA to GIN_COMPRESSED) all lie below this. */
  private static final int GIN_FLAGS_ABOVE = 0x100;

  private SpecialSpace() {}

  /** Whether {@code page} (not new) has no special space, as every heap page (PageInit with 0). */
  public static boolean isHeap(byte[] page) {
    return PageHeader.special(page) == PageHeader.BLCKSZ;
  }

  /** The index access method whose special space {@code page} (not new) carries, or null if none's. */
  public static IndexAccessMethod indexMethod(byte[] page) {
    int size = PageHeader.BLCKSZ - PageHeader.special(page);
    int last = LittleEndian.uint16(page, PageHeader.BLCKSZ - 2);
    if (size == PageHeader.maxAlign(BtreePage.SIZE_OF_BT_PAGE_OPAQUE_DATA)) {
      return last <= BtreePage.MAX_BT_CYCLE_ID ? IndexAccessMethod.BTREE
          : last == HashPage.HASHO_PAGE_ID ? IndexAccessMethod.HASH
          : last == GistPage.GIST_PAGE_ID ? IndexAccessMethod.GIST : null;
    }
    if (size == PageHeader.maxAlign(GinPage.SIZE_OF_GIN_PAGE_OPAQUE_DATA)) {
      return last == SpGistPage.SPGIST_PAGE_ID ? IndexAccessMethod.SPGIST
          : last >= BrinPage.BRIN_PAGETYPE_META && last <= BrinPage.BRIN_PAGETYPE_REGULAR ? IndexAccessMethod.BRIN
          : last < GIN_FLAGS_ABOVE ? IndexAccessMethod.GIN : null;
    }
    return null;
  }
}
