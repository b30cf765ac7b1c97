package io.pgbloat.page;

import java.io.Serializable;

/**
 * What a btree metapage says ({@link BtreeMetaPage}): the figures pgstatindex takes from it.
 *
 * @param version btm_version (pgstatindex's version)
 * @param root btm_root (root_block_no); P_NONE (0) while the index has no root
 * @param level btm_level (tree_level)
 * @param fastRoot btm_fastroot
 * @param fastLevel btm_fastlevel
 * @param allEqualImage btm_allequalimage: a build of it deduplicates (unless unique, or
 *     deduplicate_items is off)
 * @param problem why the metapage cannot be trusted, or null; the other fields are then 0
 */
public record BtreeMeta(int version, long root, long level, long fastRoot, long fastLevel, boolean allEqualImage,
    PageProblem problem)
    implements Serializable {

  /** The metapage of an index of {@code blocks} blocks that no read returned. */
  public static BtreeMeta missing(long blocks) {
    return bad(new PageProblem(BtreePage.BTREE_METAPAGE,
        blocks == 0 ? "the index has no blocks, so no metapage" : "the metapage was not read"));
  }

  /** A metapage that could not be read or trusted. */
  public static BtreeMeta bad(PageProblem problem) {
    return new BtreeMeta(0, 0, 0, 0, 0, false, problem);
  }

  public boolean isBad() {
    return problem != null;
  }
}
