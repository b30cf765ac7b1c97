package io.pgbloat.rebuild;

import io.pgbloat.page.BrinPage;
import io.pgbloat.page.ItemId;
import io.pgbloat.page.PageHeader;
import io.pgbloat.stats.Estimate;

/**
 * What a {@code REINDEX} of a BRIN index would give back: its size less that of a fresh
 * build. A build ({@code src/backend/access/brin/brin.c}, brinbuild, and
 * {@code brin_pageops.c}, brin_doinsert, the same 13-18) writes the metapage, the range map
 * (one slot per range, {@code REVMAP_PAGE_MAXITEMS} a page, right after the metapage), and the
 * summary tuples, one per range, MAXALIGNed, each page filled while PageGetFreeSpace holds
 * one more: ⌊(BLCKSZ − page header − special space) / (tuple + line pointer)⌋ a page (BRIN
 * takes no fillfactor).
 *
 * <p>The model takes the ranges a build summarizes as the summary tuples the index holds,
 * of their mean length: a build also summarizes the ranges added since the last
 * summarization (brin_summarize_new_values, autosummarize), which an index of many
 * unsummarized ranges lacks, so there it errs towards more to give back by their tuples.
 */
public final class BrinRebuild {
  private BrinRebuild() {}

  /** The blocks of a fresh build of {@code tuples} summary tuples of {@code tupleBytes} bytes in all. */
  static double freshBlocks(double tuples, double tupleBytes) {
    double ranges = Math.max(0, Math.round(tuples));
    double revmap = Math.max(1, Math.ceil(ranges / BrinPage.REVMAP_PAGE_MAXITEMS));
    if (ranges == 0) {
      return 1 + revmap;
    }
    int tuple = PageHeader.maxAlign((int) Math.ceil(tupleBytes / tuples));
    int perPage = Math.max(1, BrinPage.REGULAR_PAGE_ROOM / (tuple + ItemId.SIZE_OF_ITEM_ID_DATA));
    return 1 + revmap + Math.ceil(ranges / perPage);
  }

  /**
   * reclaimable_bytes of a BRIN index of {@code blocks} blocks holding {@code tuples} summary
   * tuples of {@code tupleBytes} in all, its interval theirs ({@link PageModelEstimate}).
   */
  public static Estimate reclaimableBytes(long blocks, Estimate tuples, Estimate tupleBytes) {
    double size = (double) blocks * PageHeader.BLCKSZ;
    return PageModelEstimate.of(x -> size - PageHeader.BLCKSZ * freshBlocks(x[0], x[1]), tuples, tupleBytes);
  }
}
