package io.pgbloat.stats;

import io.pgbloat.catalog.Relation;
import io.pgbloat.page.PageHeader;
import java.util.Arrays;

/**
 * How the dead tuples of one relation spread over its pages: the number of pages in each
 * tenth of "dead fraction", the share of the page's BLCKSZ (8192) bytes taken by dead tuples
 * (the sum of their {@code lp_len}, as pgstattuple's dead_tuple_len counts them).
 *
 * <pre>
 *   bin:      0         1          2               9
 *   fraction: [0, 10 %) [10, 20 %) [20, 30 %) ...  [90, 100 %]
 * </pre>
 *
 * Bin k holds the pages with {@code k/10 <= fraction < (k+1)/10}; the last bin is closed, so a
 * page full of dead tuples counts in bin 9. A page with no dead tuple is in bin 0, so a table
 * whose bloat is free space only has all its pages there. Bad pages are not counted.
 *
 * <p>The pages are those read: every page in a full scan, the sampled pages otherwise (a
 * sample's histogram is then itself an estimate of the table's shape).
 *
 * @param relation the relation the pages belong to
 * @param pagesPerBin {@link #BINS} counts, bin 0 first
 */
public record DeadFractionHistogram(Relation relation, long[] pagesPerBin) {
  /** Ten bins of ten percentage points each. */
  public static final int BINS = 10;

  public DeadFractionHistogram {
    if (pagesPerBin.length != BINS) {
      throw new IllegalArgumentException("Cannot make a histogram: " + pagesPerBin.length + " bins, expected " + BINS);
    }
    for (long count : pagesPerBin) {
      if (count < 0) {
        throw new IllegalArgumentException("Cannot make a histogram: negative page count " + count);
      }
    }
    pagesPerBin = pagesPerBin.clone(); // a record of plain data: nobody can change it afterwards
  }

  /** The histogram of pages with these dead fractions, each in [0, 1]. */
  public static DeadFractionHistogram ofFractions(Relation relation, double... deadFractions) {
    long[] bins = new long[BINS];
    for (double fraction : deadFractions) {
      if (!(fraction >= 0.0 && fraction <= 1.0)) { // also rejects NaN
        throw new IllegalArgumentException("Cannot bin dead fraction " + fraction + ": expected 0 to 1");
      }
      bins[Math.min(BINS - 1, (int) Math.floor(fraction * BINS))]++;
    }
    return new DeadFractionHistogram(relation, bins);
  }

  /**
   * The histogram of pages with these dead tuple bytes, each in [0, BLCKSZ]. Binned in integer
   * arithmetic, so a page exactly on a boundary (819.2 bytes cannot be, 4096 can) lands in the
   * upper bin without any rounding doubt.
   */
  public static DeadFractionHistogram ofDeadBytes(Relation relation, long... deadBytesPerPage) {
    long[] bins = new long[BINS];
    for (long bytes : deadBytesPerPage) {
      bins[binOfDeadBytes(bytes)]++;
    }
    return new DeadFractionHistogram(relation, bins);
  }

  /**
   * The bin of a page with {@code deadBytes} dead tuple bytes (0 to BLCKSZ): for binning where
   * the pages are, e.g. in Spark over the page view, as SQL {@code least(9, dead_tuple_len * 10 div 8192)}.
   */
  public static int binOfDeadBytes(long deadBytes) {
    if (deadBytes < 0 || deadBytes > PageHeader.BLCKSZ) {
      throw new IllegalArgumentException("Cannot bin " + deadBytes + " dead bytes: expected 0 to " + PageHeader.BLCKSZ);
    }
    return (int) Math.min(BINS - 1, deadBytes * BINS / PageHeader.BLCKSZ);
  }

  /** A copy of the counts, bin 0 first. */
  @Override
  public long[] pagesPerBin() {
    return pagesPerBin.clone();
  }

  /** Pages in bin {@code bin}. */
  public long pages(int bin) {
    return pagesPerBin[bin];
  }

  /** All pages counted. */
  public long totalPages() {
    return Arrays.stream(pagesPerBin).sum();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeadFractionHistogram h && relation.equals(h.relation) && Arrays.equals(pagesPerBin, h.pagesPerBin);
  }

  @Override
  public int hashCode() {
    return 31 * relation.hashCode() + Arrays.hashCode(pagesPerBin);
  }

  @Override
  public String toString() {
    return "DeadFractionHistogram[" + relation.qualifiedName() + ", " + Arrays.toString(pagesPerBin) + "]";
  }
}
