package io.pgbloat.stats;

/**
 * The sums over a btree index's pages (block 1 on) from which pgstatindex builds its figures:
 * exact after a full read, estimated (N - 1)·ȳ after a sample. One field per
 * {@link BtreeMeasure}.
 *
 * @param leafPages Σ LEAF_PAGES
 * @param internalPages Σ INTERNAL_PAGES (new pages included)
 * @param emptyPages Σ EMPTY_PAGES (half-dead pages)
 * @param deletedPages Σ DELETED_PAGES
 * @param leafFreeSpace Σ LEAF_FREE_SPACE
 * @param leafMaxAvail Σ LEAF_MAX_AVAIL
 * @param fragments Σ FRAGMENTS
 */
public record IndexTotals(
    double leafPages, double internalPages, double emptyPages, double deletedPages, double leafFreeSpace,
    double leafMaxAvail, double fragments) {}
