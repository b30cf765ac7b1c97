package io.pgbloat.stats;

import io.pgbloat.page.BtreePageStats;
import java.util.function.ToIntFunction;

/**
 * A per-page quantity of a btree index that is summed over its pages: every pgstatindex
 * figure other than the metapage's is one of these sums or a ratio of two of them
 * ({@link IndexFigures#of}). Each is 0 or 1, or a byte count of at most BLCKSZ, but for the
 * build's bytes of a leaf (BtreeRebuild), which spelling out posting lists can make larger.
 */
public enum BtreeMeasure {
  /** Leaf pages: internal_pages' sibling, leaf_pages. */
  LEAF_PAGES(BtreePageStats::leafPages),
  /** Internal pages, new pages included as pgstatindex (13-18) counts them: internal_pages. */
  INTERNAL_PAGES(BtreePageStats::internalPages),
  /** Half-dead pages: empty_pages. */
  EMPTY_PAGES(BtreePageStats::emptyPages),
  /** Deleted pages: deleted_pages. */
  DELETED_PAGES(BtreePageStats::deletedPages),
  /** PageGetFreeSpace of leaf pages: the numerator of 100 - avg_leaf_density. */
  LEAF_FREE_SPACE(BtreePageStats::leafFreeSpace),
  /** max_avail of leaf pages: the denominator of avg_leaf_density. */
  LEAF_MAX_AVAIL(BtreePageStats::leafMaxAvail),
  /** Leaves whose right sibling is at a lower block: the numerator of leaf_fragmentation. */
  FRAGMENTS(BtreePageStats::fragments),
  /** The bytes a build without deduplication writes for a leaf's live entries (BtreeRebuild). */
  LEAF_BUILD_BYTES(BtreePageStats::leafBuildBytes),
  /** The bytes a deduplicating build writes for them. */
  LEAF_DEDUPLICATED_BUILD_BYTES(BtreePageStats::leafDeduplicatedBuildBytes),
  /** The heap TIDs of a leaf's live entries. */
  LEAF_TIDS(BtreePageStats::leafTids),
  /** Leaves whose entries could not be decoded, counted at their bytes in use. */
  UNDECODED_LEAVES(BtreePageStats::undecodedLeaves);

  private final ToIntFunction<BtreePageStats> value;

  BtreeMeasure(ToIntFunction<BtreePageStats> value) {
    this.value = value;
  }

  /** This quantity on one page. */
  public int of(BtreePageStats page) {
    return value.applyAsInt(page);
  }
}
