package io.pgbloat.figures;

import io.pgbloat.page.BtreePage;
import io.pgbloat.stats.IndexMeasure;
import io.pgbloat.stats.IndexPageSums;

/**
 * The sums over a btree index's pages (block 1 on) from which pgstatindex builds its figures
 * ({@link IndexFigures#of}), each that of one {@link IndexMeasure}.
 *
 * @param leafPages Σ LEAF_PAGES
 * @param internalPages Σ INTERNAL_PAGES (new pages included)
 * @param emptyPages Σ HALF_DEAD_PAGES
 * @param deletedPages Σ DELETED_PAGES
 * @param leafFreeSpace Σ LEAF_FREE_SPACE
 * @param leafMaxAvail Σ max_avail over the leaves: {@link BtreePage#MAX_AVAIL} a leaf
 * @param fragments Σ FRAGMENTS
 */
public record IndexTotals(
    double leafPages, double internalPages, double emptyPages, double deletedPages, double leafFreeSpace,
    double leafMaxAvail, double fragments) {

  /** The exact totals over the pages {@code sums} read: pgstatindex's, when they are every page. */
  public static IndexTotals read(IndexPageSums sums) {
    return new IndexTotals(sums.read(IndexMeasure.LEAF_PAGES), sums.read(IndexMeasure.INTERNAL_PAGES),
        sums.read(IndexMeasure.HALF_DEAD_PAGES), sums.read(IndexMeasure.DELETED_PAGES),
        sums.read(IndexMeasure.LEAF_FREE_SPACE), (double) BtreePage.MAX_AVAIL * sums.read(IndexMeasure.LEAF_PAGES),
        sums.read(IndexMeasure.FRAGMENTS));
  }
}
