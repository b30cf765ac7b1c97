package io.pgbloat.page;

/**
 * A hash index page and its special space, HashPageOpaqueData
 * ({@code src/include/access/hash.h}, the same 13-18), counted as pgstattuple
 * ({@code pgstat_hash_page}) and pgstathashindex ({@code contrib/pgstattuple/pgstatindex.c})
 * count it.
 *
 * <pre>
 * HashPageOpaqueData, 16 bytes at pd_special = BLCKSZ - 16:
 * | hasho_prevblkno 0 (4) | hasho_nextblkno 4 (4) | hasho_bucket 8 (4) | hasho_flag 12 (2) | hasho_page_id 14 (2) |
 * </pre>
 */
public final class HashPage extends CheckedIndexPage {
  /** sizeof(HashPageOpaqueData). */
  public static final int SIZE_OF_HASH_PAGE_OPAQUE_DATA = 16;
  /** hasho_flag, from pd_special. */
  static final int HASHO_FLAG_OFFSET = 12;
  /** HASHO_PAGE_ID: the last two bytes of every hash page. */
  public static final int HASHO_PAGE_ID = 0xFF80;
  /** LH_PAGE_TYPE: the bits of hasho_flag that say what the page is. */
  static final int LH_PAGE_TYPE = 0x000F;
  static final int LH_UNUSED_PAGE = 0;
  static final int LH_OVERFLOW_PAGE = 1;
  static final int LH_BUCKET_PAGE = 1 << 1;
  static final int LH_BITMAP_PAGE = 1 << 2;
  static final int LH_META_PAGE = 1 << 3;
  /** HASH_METAPAGE. */
  public static final long HASH_METAPAGE = 0;
  /**
   * hashm_bsize: a page's room for tuples, BLCKSZ - SizeOfPageHeaderData - MAXALIGN(sizeof(HashPageOpaqueData)),
   * as {@code _hash_init_metabuffer} stores it: pgstathashindex's unit of free space.
   */
  public static final int BSIZE = PageHeader.BLCKSZ - PageHeader.SIZE_OF_PAGE_HEADER_DATA - SIZE_OF_HASH_PAGE_OPAQUE_DATA;
  /**
   * A hash index tuple's bytes with its line pointer: MAXALIGN(sizeof(IndexTupleData)) +
   * MAXALIGN(sizeof(uint32)) + sizeof(ItemIdData), the hash code being its only key
   * ({@code hashpage.c}, _hash_init's item_width).
   */
  public static final int ITEM_WIDTH = PageHeader.maxAlign(IndexTuple.SIZE_OF_INDEX_TUPLE_DATA) + PageHeader.maxAlign(Integer.BYTES)
      + ItemId.SIZE_OF_ITEM_ID_DATA;
  /**
   * The hash index tuples a bucket or overflow page holds: {@link #BSIZE} over {@link #ITEM_WIDTH}
   * ({@code hashinsert.c} _hash_doinsert moves on to an overflow page once PageGetFreeSpace is
   * below the tuple's size).
   */
  public static final int TUPLES_PER_PAGE = BSIZE / ITEM_WIDTH;
  /**
   * BMPGSZ_BIT: the overflow pages one bitmap page maps, a bit each: hashm_bmsize, the largest
   * power of 2 not above {@link #BSIZE} ({@code hashpage.c}, _hash_init_metabuffer), in bits.
   * A bitmap page's first bit is its own.
   */
  public static final int BITMAP_BITS = Integer.highestOneBit(BSIZE) * Byte.SIZE;
  /** HASH_SPLITPOINT_PHASE_BITS ({@code hash.h}): a split-point group past the first ten grows in 4 phases. */
  public static final int HASH_SPLITPOINT_PHASE_BITS = 2;
  /** HASH_SPLITPOINT_GROUPS_WITH_ONE_PHASE: the groups of 1, 2, 4, ... 512 buckets, doubled at once. */
  public static final int HASH_SPLITPOINT_GROUPS_WITH_ONE_PHASE = 10;
  /** HASH_MAGIC, hashm_magic of HashMetaPageData. */
  static final long HASH_MAGIC = 0x6440640;
  // HashMetaPageData at PageGetContents (24), offsets from there
  static final int HASHM_MAGIC_OFFSET = 0;    // uint32 hashm_magic
  static final int HASHM_VERSION_OFFSET = 4;  // uint32 hashm_version
  static final int HASHM_BSIZE_OFFSET = 18;   // uint16 hashm_bsize: usable bytes of a page, 8152
  static final int HASHM_BMSIZE_OFFSET = 20;  // uint16 hashm_bmsize: the bytes of bits a bitmap page holds
  static final int HASHM_MAXBUCKET_OFFSET = 24; // uint32 hashm_maxbucket: the highest bucket
  static final int HASHM_OVFLPOINT_OFFSET = 36; // uint32 hashm_ovflpoint: the split point pages are allocated at
  static final int HASHM_NMAPS_OFFSET = 44;   // uint32 hashm_nmaps: the bitmap pages in use
  // uint32 hashm_spares[HASH_MAX_SPLITPOINTS]: the pages allocated past the buckets up to each split point
  static final int HASHM_SPARES_OFFSET = 52;
  static final int HASHM_MAPP_OFFSET = 444;   // BlockNumber hashm_mapp[HASH_MAX_BITMAPS]: the bitmap pages' blocks
  /** HASH_MAX_SPLITPOINTS: the length of hashm_spares. */
  static final int HASH_MAX_SPLITPOINTS = (HASHM_MAPP_OFFSET - HASHM_SPARES_OFFSET) / Integer.BYTES;
  /** HASH_MAX_BITMAPS, Min(BLCKSZ / 8, 1024): the length of hashm_mapp. */
  static final int HASH_MAX_BITMAPS = Math.min(PageHeader.BLCKSZ / 8, 1024);

  public HashPage(PageRules rules) {
    super(rules, SIZE_OF_HASH_PAGE_OPAQUE_DATA, HASHO_PAGE_ID, "hash", PageHeader.BLCKSZ);
  }

  /**
   * pgstattuple's free space: a new or unused page is all free (BLCKSZ), a bucket or overflow
   * page by the version's rule, a bitmap page or the metapage none; pgstathashindex instead
   * takes the {@link IndexPageStats#gap} of bucket and overflow pages and hashm_bsize for new
   * and unused ones.
   */
  @Override
  IndexPageStats countChecked(byte[] page, long block) {
    int type = LittleEndian.uint16(page, PageHeader.special(page) + HASHO_FLAG_OFFSET) & LH_PAGE_TYPE;
    if ((type == LH_META_PAGE) != (block == HASH_METAPAGE)) {
      return IndexPageStats.bad(block, "page type 0x" + Integer.toHexString(type) + " at block " + block
          + ": the metapage is block 0, and only it");
    }
    return switch (type) {
      case LH_BUCKET_PAGE -> IndexPageCounter.pgstattupleItems(page, block, IndexPageKind.BUCKET, 1, freeSpace());
      case LH_OVERFLOW_PAGE -> IndexPageCounter.pgstattupleItems(page, block, IndexPageKind.OVERFLOW, 1, freeSpace());
      case LH_BITMAP_PAGE -> IndexPageStats.of(block, IndexPageKind.BITMAP, IndexPageCounter.gap(page));
      case LH_META_PAGE -> IndexPageStats.of(block, IndexPageKind.META, IndexPageCounter.gap(page));
      case LH_UNUSED_PAGE -> IndexPageStats.of(block, IndexPageKind.UNUSED, IndexPageCounter.gap(page))
          .withFreeSpace(PageHeader.BLCKSZ);
      default -> IndexPageStats.bad(block, "hasho_flag page type 0x" + Integer.toHexString(type) + " is none of hash's");
    };
  }

  /**
   * The blocks of the bitmap pages a hash metapage lists (hashm_mapp[0 .. hashm_nmaps - 1]), or
   * none when {@code page} is no hash metapage or its count is past hashm_mapp's length.
   */
  public static long[] bitmapBlocks(byte[] page) {
    int contents = PageHeader.PAGE_CONTENTS;
    long maps = LittleEndian.uint32(page, contents + HASHM_NMAPS_OFFSET);
    if (metapage(page) == null || maps > HASH_MAX_BITMAPS) {
      return new long[0];
    }
    long[] blocks = new long[(int) maps];
    for (int i = 0; i < blocks.length; i++) {
      blocks[i] = LittleEndian.uint32(page, contents + HASHM_MAPP_OFFSET + i * Integer.BYTES);
    }
    return blocks;
  }

  /** hashm_maxbucket of the metapage {@code meta}. */
  static long maxBucket(byte[] meta) {
    return LittleEndian.uint32(meta, PageHeader.PAGE_CONTENTS + HASHM_MAXBUCKET_OFFSET);
  }

  /**
   * hashm_spares[hashm_ovflpoint] of the metapage {@code meta}: every page allocated past the
   * buckets, bitmap pages in; -1 when hashm_ovflpoint is past the array.
   */
  static long overflowSpacePages(byte[] meta) {
    long point = LittleEndian.uint32(meta, PageHeader.PAGE_CONTENTS + HASHM_OVFLPOINT_OFFSET);
    return point >= HASH_MAX_SPLITPOINTS ? -1
        : LittleEndian.uint32(meta, PageHeader.PAGE_CONTENTS + HASHM_SPARES_OFFSET + (int) point * Integer.BYTES);
  }

  /**
   * The cleared bits of the bitmap page {@code page}, each a freed overflow page, over the
   * hashm_bmsize bytes of bits (of the metapage {@code meta}) from PageGetContents
   * (HashPageGetBitmap); -1 when it is no bitmap page or the bits would run past the page.
   */
  public static long freeOverflowBits(byte[] page, byte[] meta) {
    int bmsize = LittleEndian.uint16(meta, PageHeader.PAGE_CONTENTS + HASHM_BMSIZE_OFFSET);
    int type = LittleEndian.uint16(page, PageHeader.special(page) + HASHO_FLAG_OFFSET) & LH_PAGE_TYPE;
    if (type != LH_BITMAP_PAGE || PageHeader.PAGE_CONTENTS + bmsize > PageHeader.special(page)) {
      return -1;
    }
    long cleared = 0;
    for (int i = 0; i < bmsize; i++) {
      cleared += Byte.SIZE - Integer.bitCount(page[PageHeader.PAGE_CONTENTS + i] & 0xFF);
    }
    return cleared;
  }

  /**
   * The hash metapage's fields pgstathashindex uses.
   *
   * @return {version, bsize}, or null when {@code page} is no hash metapage
   */
  public static int[] metapage(byte[] page) {
    int contents = PageHeader.PAGE_CONTENTS;
    if (LittleEndian.uint32(page, contents + HASHM_MAGIC_OFFSET) != HASH_MAGIC) {
      return null;
    }
    return new int[] {LittleEndian.int32(page, contents + HASHM_VERSION_OFFSET),
        LittleEndian.uint16(page, contents + HASHM_BSIZE_OFFSET)};
  }
}
