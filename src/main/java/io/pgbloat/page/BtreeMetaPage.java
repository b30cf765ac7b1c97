package io.pgbloat.page;

/**
 * Block 0 of a btree index: BTMetaPageData ({@code src/include/access/nbtree.h}), which
 * starts at PageGetContents, MAXALIGN(SizeOfPageHeaderData) = 24, with the usual
 * BTPageOpaqueData (flags BTP_META) in the special space.
 *
 * <pre>
 * offset from PageGetContents:
 * +-----------+-------------+----------+-----------+---------------+-----------------+
 * | btm_magic | btm_version | btm_root | btm_level | btm_fastroot  | btm_fastlevel   |
 * |  0 (4)    |  4 (4)      |  8 (4)   | 12 (4)    | 16 (4)        | 20 (4)          |
 * +-----------+-------------+----------+-----------+---------------+-----------------+
 * | btm_last_cleanup_num_delpages 24 (4) | pad | num_heap_tuples 32 (8) | allequalimage 40 |
 * +--------------------------------------+-----+------------------------+------------------+
 * </pre>
 *
 * The checks are those {@code _bt_getmeta} ({@code src/backend/access/nbtree/nbtpage.c})
 * makes before it trusts a metapage, after the header and checksum rules; a block 0 that fails
 * them is a bad page. btm_fastroot and btm_fastlevel are laid out here and not read: no figure
 * uses them.
 */
public final class BtreeMetaPage {
  /** PageGetContents: where BTMetaPageData starts, MAXALIGN(SizeOfPageHeaderData). */
  public static final int BT_META_OFFSET = PageHeader.PAGE_CONTENTS;
  /** uint32 btm_magic: should contain BTREE_MAGIC. */
  public static final int BTM_MAGIC_OFFSET = 0;
  /** uint32 btm_version: nbtree version (always &lt;= BTREE_VERSION). */
  public static final int BTM_VERSION_OFFSET = 4;
  /** BlockNumber btm_root: current root location (P_NONE while the index is empty). */
  public static final int BTM_ROOT_OFFSET = 8;
  /** uint32 btm_level: tree level of the root page. */
  public static final int BTM_LEVEL_OFFSET = 12;
  /** BlockNumber btm_fastroot: current "fast" root location. */
  public static final int BTM_FASTROOT_OFFSET = 16;
  /** uint32 btm_fastlevel: tree level of the "fast" root page. */
  public static final int BTM_FASTLEVEL_OFFSET = 20;

  /**
   * bool btm_allequalimage (13 on): whether every key column is "equal image", so that
   * deduplication is safe; a metapage written before 13 holds 0 there.
   */
  public static final int BTM_ALLEQUALIMAGE_OFFSET = 40;

  /** BTREE_MAGIC: magic number in metapage. */
  public static final long BTREE_MAGIC = 0x053162;
  /** BTREE_VERSION: current version number (PostgreSQL 12 and later). */
  public static final int BTREE_VERSION = 4;
  /** BTREE_MIN_VERSION: minimum supported version. */
  public static final int BTREE_MIN_VERSION = 2;

  private BtreeMetaPage() {}

  /**
   * Why block 0, a sound page with BTP_META set ({@link BtreePage#count}), is no btree
   * metapage, or null.
   */
  static String problem(byte[] page) {
    long magic = LittleEndian.uint32(page, BT_META_OFFSET + BTM_MAGIC_OFFSET);
    if (magic != BTREE_MAGIC) {
      return String.format("btm_magic 0x%06x, expected BTREE_MAGIC 0x%06x: not a btree", magic, BTREE_MAGIC);
    }
    long version = LittleEndian.uint32(page, BT_META_OFFSET + BTM_VERSION_OFFSET);
    if (version < BTREE_MIN_VERSION || version > BTREE_VERSION) {
      return "btm_version " + version + ", expected " + BTREE_MIN_VERSION + " to " + BTREE_VERSION;
    }
    return null;
  }

  /**
   * The figures pgstatindex takes from block 0 of a btree index, a page {@link BtreePage#count}
   * found sound.
   *
   * @param page {@link PageHeader#BLCKSZ} bytes read from block 0
   */
  static IndexMetapage read(byte[] page) {
    return IndexMetapage.btree(LittleEndian.uint32(page, BT_META_OFFSET + BTM_VERSION_OFFSET),
        LittleEndian.uint32(page, BT_META_OFFSET + BTM_ROOT_OFFSET),
        LittleEndian.uint32(page, BT_META_OFFSET + BTM_LEVEL_OFFSET),
        page[BT_META_OFFSET + BTM_ALLEQUALIMAGE_OFFSET] != 0);
  }
}
