package io.pgbloat.rebuild;

import io.pgbloat.catalog.RelOptions;
import io.pgbloat.page.HeapPage;
import io.pgbloat.page.ItemId;
import io.pgbloat.page.PageHeader;
import io.pgbloat.stats.Estimate;
import io.pgbloat.stats.Measure;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * How many pages a table rewrite (VACUUM FULL, CLUSTER) writes for a relation's live tuples,
 * modelled from sums over its pages, since the rewrite's page-by-page fill cannot be replayed
 * from sums.
 *
 * <h2>The rule it models</h2>
 *
 * raw_heap_insert ({@code src/backend/access/heap/rewriteheap.c}) fills one page at a time in
 * the order it is given the tuples, and never returns to an earlier page (next fit): a tuple
 * of t_len goes on the current page when MAXALIGN(t_len) + saveFreeSpace ≤
 * PageGetHeapFreeSpace ({@code src/backend/storage/page/bufpage.c}: pd_upper − pd_lower less
 * one sizeof(ItemIdData)), else the page is written and a new one started; the first tuple of
 * a new page always goes in. saveFreeSpace is RelationGetTargetPageFreeSpace
 * ({@code src/include/utils/rel.h}): BLCKSZ × (100 − fillfactor) / 100 in integer arithmetic.
 * With item size s = MAXALIGN(t_len) + sizeof(ItemIdData) ({@code bufpage.h}, {@code itemid.h})
 * that is: a page holds items while their sizes add up to at most
 *
 * <pre>
 *   C = BLCKSZ − SizeOfPageHeaderData − saveFreeSpace          (8168 at fillfactor 100)
 * </pre>
 *
 * and no more than MaxHeapTuplesPerPage ({@code htup_details.h}) of them, since
 * PageGetHeapFreeSpace is 0 once a page has that many line pointers and none free. A TOAST
 * table written during the rewrite (heap_insert through RelationGetBufferForTuple,
 * {@code src/backend/access/heap/hio.c}, with HEAP_INSERT_SKIP_FSM: the last page or a new one)
 * follows the same rule with saveFreeSpace 0; its chunks, though, come in runs, not as the
 * independent draws assumed below, and {@link ToastRewrite} models it.
 *
 * <h2>The model</h2>
 *
 * Take the n live items as independent draws of mean μ and variance σ² (both from the sums of s
 * and s² over the pages). K, the number of items on one page, is at least 1, because a new page
 * takes its first tuple whatever its size, and K ≥ k exactly when the first k items add up to
 * at most C, so E[K] = 1 + Σ_{k ≥ 2} P(S_k ≤ C), k up to 291. The first item of a page is not a
 * fresh draw: it is the tuple the page before had no room for, and a long tuple is likelier to
 * be that one, in proportion to its length (the inspection paradox of renewal theory; Feller,
 * <i>An Introduction to Probability Theory and Its Applications</i>, vol. II, ch. XI), so it is
 * taken size-biased, of mean E[s²]/μ = μ + σ²/μ. P(S_k ≤ C) is then the normal approximation of
 * S_k (mean μ + σ²/μ + (k − 1)μ, variance kσ², the first item's variance taken as σ²), with the
 * continuity correction of its lattice: every s is 4 more than a multiple of MAXIMUM_ALIGNOF,
 * so S_k takes only every eighth value. The pages written are ⌈n / E[K]⌉.
 *
 * <p>Two cases show what it does. Items of one size s (σ = 0): E[K] = ⌊C/s⌋ and the pages are
 * ⌈n/⌊C/s⌋⌋, exactly what the rewrite writes. Items of varied size, many to a page: the point
 * C falls inside the size-biased tuple that does not fit, uniformly, so the page loses on
 * average half of it, E[s²]/(2μ) = μ/2 + σ²/(2μ) bytes, and E[K] ≈ C/μ − 1/2 − σ²/(2μ²): "half a
 * mean tuple lost per page", more where sizes vary. Checked against a tuple-by-tuple replay of
 * raw_heap_insert ({@code TableRewriteTest}; the margins in docs/accuracy.md): close while a
 * page holds several tuples, less so when it holds two or three of widely varied size, where the
 * first tuple of a page is less size-biased than assumed.
 *
 * <p>What it cannot see: the order of the tuples (a table whose first half has short rows and
 * second half long ones packs like the mixture here, which is close but not exact). The item
 * sizes are those of the tuples as the rewrite forms them again ({@code page/TableColumns}),
 * but for values it re-toasts.
 */
public final class TableRewrite {
  /**
   * MAXIMUM_ALIGNOF ({@code pg_config.h}, x86-64): item sizes are MAXALIGNed lengths plus a
   * 4-byte line pointer, so sums of k items lie on a lattice of this spacing.
   */
  private static final int LATTICE = 8;

  private static final NormalDistribution STANDARD_NORMAL = new NormalDistribution(null, 0, 1);

  private TableRewrite() {}

  /** RelationGetTargetPageFreeSpace ({@code rel.h}): bytes left free on each page written. */
  public static int saveFreeSpace(int fillfactor) {
    checkFillfactor(fillfactor);
    return PageHeader.BLCKSZ * (100 - fillfactor) / 100;
  }

  /** C: the bytes of items (MAXALIGNed tuple plus line pointer) one rewritten page takes. */
  public static int pageCapacity(int fillfactor) {
    return PageHeader.BLCKSZ - PageHeader.SIZE_OF_PAGE_HEADER_DATA - saveFreeSpace(fillfactor);
  }

  /**
   * E[K]: the mean number of items next-fit puts on one page of capacity {@code capacity}, for
   * items of mean {@code mean} and variance {@code variance} (bytes, bytes²).
   */
  public static double itemsPerPage(double mean, double variance, int capacity) {
    if (!(mean > 0)) {
      throw new IllegalArgumentException("mean item size must be positive, got " + mean);
    }
    double sd = Math.sqrt(Math.max(0.0, variance));
    double items = 1.0; // the first tuple of a page always goes in
    for (int k = 2; k <= HeapPage.MAX_HEAP_TUPLES_PER_PAGE; k++) {
      double p;
      if (sd == 0.0) {
        p = k * mean <= capacity ? 1.0 : 0.0;
      } else {
        // S_k takes the values 4k + 8j: the largest such value ≤ C, then half a step above it
        long highest = capacity - Math.floorMod(capacity - (long) ItemId.SIZE_OF_ITEM_ID_DATA * k, LATTICE);
        // a page starts with the tuple the last page had no room for: size-biased, mean E[s²]/μ
        double firstMean = mean + variance / mean;
        p = STANDARD_NORMAL.cumulativeProbability(
            (highest + LATTICE / 2.0 - firstMean - (k - 1) * mean) / (sd * Math.sqrt(k)));
      }
      if (p < 1e-12) {
        break; // S_k only grows with k: no later k fits either
      }
      items += p;
    }
    return items;
  }

  /**
   * The pages a rewrite writes for {@code items} live tuples whose items (MAXALIGN(t_len) +
   * sizeof(ItemIdData)) add up to {@code itemBytes} bytes and their squares to
   * {@code itemSquares} bytes², at {@code fillfactor}. Zero tuples give zero pages.
   *
   * @param squaresRounding how far rounding may have moved {@code itemSquares} (bytes²): a
   *     variance no larger than that spread over the items is not told from 0, and is taken as
   *     0, so that tuples of one size pack exactly
   */
  public static double pages(double items, double itemBytes, double itemSquares, double squaresRounding,
      int fillfactor) {
    if (items <= 0 || itemBytes <= 0) {
      return 0.0;
    }
    double mean = itemBytes / items;
    double variance = itemSquares / items - mean * mean;
    if (variance <= squaresRounding / items) {
      variance = 0.0;
    }
    // less a hair, so that an exact multiple of E[K] does not round up through float error
    return Math.ceil(items / itemsPerPage(mean, variance, pageCapacity(fillfactor)) - 1e-9);
  }

  /**
   * reclaimable_bytes: table_len less what a rewrite of the relation would write, from the
   * estimated totals of its live tuples ({@code tuples}), their items ({@code itemBytes}) and
   * the items' squares ({@code itemSquareUnits}, in BLCKSZ bytes² as {@link Measure#LIVE_ITEM_SQUARES}
   * sums them). A bad page is taken to be kept whole: its tuples could not be counted, so
   * nothing on it is claimed to be reclaimable.
   *
   * <p>Not floored at 0: a negative value is a rewrite that would grow the table (a fillfactor
   * lowered after the rows were written, or the model's one page of slack on a packed table).
   *
   * <p>Standard error by the delta method: the pages are ⌈n / E[K]⌉ = Σs / (μ·E[K]), and the
   * mean item size μ = Σs/n is a ratio estimate whose error is of second order next to that of
   * the total Σs, so μ (and E[K] with it) is held fixed and SE(pages) = SE(Σs) / (μ·E[K]), the
   * bytes a rewritten page holds. The interval is the same multiple of the SE as the interval
   * of Σs (its t quantile), not floored, but capped at table_len: a rewrite writes no fewer
   * than zero pages. A full scan gives SE 0: the figure is exact up to the packing model.
   */
  public static Estimate reclaimableBytes(long blocks, long badPages, Estimate tuples, Estimate itemBytes,
      Estimate itemSquareUnits, int fillfactor) {
    return reclaimableBytes(blocks, badPages, tuples, itemBytes, itemSquareUnits, null, fillfactor);
  }

  /**
   * As {@link #reclaimableBytes(long, long, Estimate, Estimate, Estimate, int)}, for a TOAST
   * table when {@code toastChunks} (its live chunks by kind) is given: its pages are then those
   * {@link ToastRewrite} replays.
   */
  public static Estimate reclaimableBytes(long blocks, long badPages, Estimate tuples, Estimate itemBytes,
      Estimate itemSquareUnits, ToastRewrite.ChunkTotals toastChunks, int fillfactor) {
    long tableLen = blocks * PageHeader.BLCKSZ;
    if (!tuples.isKnown() || !itemBytes.isKnown() || !itemSquareUnits.isKnown()) {
      // nothing of a sampled part was readable: no estimate, at most the whole table
      return new Estimate(Double.NaN, Double.NaN, Double.NEGATIVE_INFINITY, tableLen);
    }
    // each page's squares were rounded by at most half a unit of BLCKSZ bytes²
    double squaresRounding = blocks * (PageHeader.BLCKSZ / 2.0);
    double squares = itemSquareUnits.value() * PageHeader.BLCKSZ;
    double pages = toastChunks == null || tuples.value() <= 0
        ? pages(tuples.value(), itemBytes.value(), squares, squaresRounding, fillfactor)
        : ToastRewrite.pages(tuples.value(), toastChunks, itemBytes.value(), squares, squaresRounding);
    double value = tableLen - (pages + badPages) * PageHeader.BLCKSZ;
    if (itemBytes.isExact()) {
      return Estimate.exact(value);
    }
    double bytesPerPage = pages > 0 ? itemBytes.value() / pages : pageCapacity(fillfactor);
    double se = PageHeader.BLCKSZ * itemBytes.standardError() / bytesPerPage;
    double t = (itemBytes.high() - itemBytes.value()) / itemBytes.standardError();
    return new Estimate(value, se, value - t * se, Math.min(tableLen, value + t * se));
  }

  private static void checkFillfactor(int fillfactor) {
    if (fillfactor < RelOptions.HEAP_MIN_FILLFACTOR || fillfactor > 100) {
      throw new IllegalArgumentException("fillfactor must be in " + RelOptions.HEAP_MIN_FILLFACTOR + "..100, got " + fillfactor);
    }
  }
}
