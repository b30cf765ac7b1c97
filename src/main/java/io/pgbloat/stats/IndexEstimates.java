package io.pgbloat.stats;

import io.pgbloat.page.BtreeMeta;
import io.pgbloat.page.PageHeader;
import java.io.Serializable;

/**
 * pgstatindex's figures for one btree index, each page figure an {@link Estimate}: exact
 * (SE 0) when every page was read, estimated from a simple random sample of its pages
 * otherwise. version, tree_level and root_block_no come from the metapage, index_size from
 * the file's length: those are always exact.
 *
 * @param meta the metapage
 * @param blocks N, the index's length in blocks
 * @param sampledPages good pages read among blocks 1 to N - 1 (n)
 * @param badPages pages that failed the checks; left out of the figures
 * @param internalPages internal_pages
 * @param leafPages leaf_pages
 * @param emptyPages empty_pages (half-dead)
 * @param deletedPages deleted_pages
 * @param avgLeafDensity avg_leaf_density, a ratio estimate; its value rounded as pgstatindex prints it
 * @param leafFragmentation leaf_fragmentation, a ratio estimate, rounded likewise
 * @param reclaimableBytes what a REINDEX would give back ({@link BtreeRebuild})
 */
public record IndexEstimates(
    BtreeMeta meta, long blocks, long sampledPages, long badPages, Estimate internalPages, Estimate leafPages,
    Estimate emptyPages, Estimate deletedPages, Estimate avgLeafDensity, Estimate leafFragmentation,
    Estimate reclaimableBytes)
    implements Serializable {

  /** The point estimates as pgstatindex's ten columns (counts rounded to whole pages). */
  public IndexFigures figures() {
    return new IndexFigures(meta.version(), meta.level(), blocks * PageHeader.BLCKSZ, meta.root(), Math.round(internalPages.value()), Math.round(leafPages.value()),
        Math.round(emptyPages.value()), Math.round(deletedPages.value()), avgLeafDensity.value(),
        leafFragmentation.value());
  }

  /** Whether every figure is exact (every page read). */
  public boolean isExact() {
    return internalPages.isExact() && leafPages.isExact() && emptyPages.isExact() && deletedPages.isExact()
        && avgLeafDensity.isExact() && leafFragmentation.isExact() && reclaimableBytes.isExact();
  }
}
