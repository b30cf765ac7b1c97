package io.pgbloat.page;

/**
 * A page of a relation's visibility map fork ({@code <relfilenode>_vm}), as
 * {@code src/backend/access/heap/visibilitymap.c} lays it out: the standard page header, then
 * {@link #MAPSIZE} bytes holding {@link #BITS_PER_HEAPBLOCK} bits per heap block, lowest bits
 * first. A set all-visible bit promises that every tuple on the heap page is visible to all,
 * so the page holds no dead tuple.
 */
public final class VisibilityMapPage {
  /** MAPSIZE: BLCKSZ - MAXALIGN(SizeOfPageHeaderData). */
  public static final int MAPSIZE = PageHeader.BLCKSZ - PageHeader.PAGE_CONTENTS;
  /** BITS_PER_HEAPBLOCK. */
  public static final int BITS_PER_HEAPBLOCK = 2;
  /** HEAPBLOCKS_PER_BYTE. */
  public static final int HEAPBLOCKS_PER_BYTE = Byte.SIZE / BITS_PER_HEAPBLOCK;
  /** HEAPBLOCKS_PER_PAGE: 32672 heap blocks per map page. */
  public static final int HEAPBLOCKS_PER_PAGE = MAPSIZE * HEAPBLOCKS_PER_BYTE;
  /** VISIBILITYMAP_ALL_VISIBLE. */
  public static final int VISIBILITYMAP_ALL_VISIBLE = 0x01;
  /** VISIBILITYMAP_ALL_FROZEN. */
  public static final int VISIBILITYMAP_ALL_FROZEN = 0x02;

  private VisibilityMapPage() {}

  /** HEAPBLK_TO_MAPBLOCK: the map page holding heap block {@code heapBlock}'s bits. */
  public static long mapBlock(long heapBlock) {
    return heapBlock / HEAPBLOCKS_PER_PAGE;
  }

  /** The VISIBILITYMAP_* bits of {@code heapBlock} in its map page {@code page}. */
  public static int bits(byte[] page, long heapBlock) {
    int inPage = (int) (heapBlock % HEAPBLOCKS_PER_PAGE);
    int mapByte = inPage / HEAPBLOCKS_PER_BYTE;                          // HEAPBLK_TO_MAPBYTE
    int shift = (inPage % HEAPBLOCKS_PER_BYTE) * BITS_PER_HEAPBLOCK;     // HEAPBLK_TO_OFFSET
    return (page[PageHeader.PAGE_CONTENTS + mapByte] >> shift) & ((1 << BITS_PER_HEAPBLOCK) - 1);
  }
}
