package io.pgbloat.page;

import java.io.Serializable;

/**
 * The metapage figures PostgreSQL's functions report for an index: a btree's (pgstatindex's
 * version, root_block_no and tree_level, and whether a build may deduplicate), a hash index's
 * (pgstathashindex's version) and a GIN index's (pgstatginindex's version, pending_pages,
 * pending_tuples). A figure a method's metapage does not have is 0.
 *
 * @param version btm_version, hashm_version or ginVersion
 * @param rootBlockNo btree: btm_root, P_NONE (0) while the index has no root
 * @param treeLevel btree: btm_level
 * @param allEqualImage btree: btm_allequalimage, a build of it deduplicates (unless unique, or
 *     deduplicate_items is off)
 * @param pendingPages GIN: nPendingPages
 * @param pendingTuples GIN: nPendingHeapTuples
 */
public record IndexMetapage(long version, long rootBlockNo, long treeLevel, boolean allEqualImage, long pendingPages,
    long pendingTuples) implements Serializable {

  /** What a btree whose metapage was not read, or is bad, shows of it: version, root and level 0. */
  public static final IndexMetapage BTREE_UNREAD = btree(0, 0, 0, false);

  /** A btree metapage's figures ({@link BtreeMetaPage}). */
  public static IndexMetapage btree(long version, long rootBlockNo, long treeLevel, boolean allEqualImage) {
    return new IndexMetapage(version, rootBlockNo, treeLevel, allEqualImage, 0, 0);
  }

  /**
   * The metapage of an index of access method {@code am}, {@code page} a block 0 its counter
   * found sound; null where it has none reported.
   */
  public static IndexMetapage of(IndexAccessMethod am, byte[] page) {
    return switch (am) {
      case BTREE -> BtreeMetaPage.read(page);
      case HASH -> {
        int[] meta = HashPage.metapage(page);
        yield meta == null ? null : new IndexMetapage(meta[0], 0, 0, false, 0, 0);
      }
      case GIN -> {
        long[] meta = GinPage.metapage(page);
        yield new IndexMetapage(meta[0], 0, 0, false, meta[1], meta[2]);
      }
      default -> null;
    };
  }
}
