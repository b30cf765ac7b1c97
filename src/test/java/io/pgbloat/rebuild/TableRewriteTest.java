package io.pgbloat.rebuild;

import static io.pgbloat.page.PageHeader.BLCKSZ;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.page.HeapPageStats;
import io.pgbloat.stats.Estimate;
import java.util.SplittableRandom;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

class TableRewriteTest {
  @Test
  void fillfactorReservesWhatRelationGetTargetPageFreeSpaceReserves() {
    assertEquals(0, TableRewrite.saveFreeSpace(100));
    assertEquals(2457, TableRewrite.saveFreeSpace(70)); // 8192 * 30 / 100 = 2457.6, truncated
    assertEquals(4096, TableRewrite.saveFreeSpace(50));
    assertEquals(8168, TableRewrite.pageCapacity(100));
    assertEquals(8168 - 2457, TableRewrite.pageCapacity(70));
    assertThrows(IllegalArgumentException.class, () -> TableRewrite.saveFreeSpace(9));
    assertThrows(IllegalArgumentException.class, () -> TableRewrite.saveFreeSpace(101));
  }

  @Test
  void tuplesOfOneSizePackExactlyAsTheRewriteDoes() {
    // t_len 28 (one int4), 100 (a short text row), 1004, 2032 (a full TOAST chunk), 4000
    for (int fillfactor : new int[] {100, 90, 70, 50, 10}) {
      for (int tupleLength : new int[] {24, 28, 100, 1004, 2032, 4000, 8000}) {
        for (int n : new int[] {1, 2, 291, 1000, 12345}) {
          assertEquals(replay(fillfactor, n, () -> tupleLength), model(fillfactor, n, () -> tupleLength),
              "fillfactor " + fillfactor + ", " + n + " tuples of " + tupleLength + " bytes");
        }
      }
    }
  }

  @Test
  void onePageHoldsAtMostMaxHeapTuplesPerPage() {
    // a tuple with no columns: 24 bytes + 4, 8168 / 28 = 291.7, and 291 is the cap
    assertEquals(1.0, TableRewrite.pages(291, 291 * 28, 291 * 28 * 28, 0, 100));
    assertEquals(2.0, TableRewrite.pages(292, 292 * 28, 292 * 28 * 28, 0, 100));
  }

  @Test
  void nothingLiveWritesNoPage() {
    assertEquals(0.0, TableRewrite.pages(0, 0, 0, 0, 100));
    Estimate zero = Estimate.exact(0);
    assertEquals(Estimate.exact(10 * BLCKSZ), TableRewrite.reclaimableBytes(10, 0, zero, zero, zero, 100));
  }

  @Test
  void tuplesOfVariedSizeMatchTheReplayWithinTheMeasuredError() {
    SplittableRandom random = new SplittableRandom(42);
    // t_len drawn uniformly from each range; the error allowed is what the model was measured
    // to make: 0.1 % where a page holds five or more tuples, 1.5 % and 3 % where two to four
    // tuples of widely varied length share a page (see TableRewrite)
    int[][] ranges = {{28, 60}, {60, 400}, {200, 1200}, {900, 2100}, {28, 4000}};
    double[] allowed = {0.001, 0.001, 0.001, 0.015, 0.03};
    for (int r = 0; r < ranges.length; r++) {
      int[] range = ranges[r];
      for (int fillfactor : new int[] {100, 70, 50}) {
        int n = 200_000;
        long seed = random.nextLong();
        long replayed = replay(fillfactor, n, uniform(new SplittableRandom(seed), range));
        double modelled = model(fillfactor, n, uniform(new SplittableRandom(seed), range));
        double error = (modelled - replayed) / replayed;
        assertTrue(Math.abs(error) < allowed[r], "t_len in " + range[0] + ".." + range[1] + ", fillfactor " + fillfactor
            + ": replay " + replayed + " pages, model " + modelled + " (" + 100 * error + " %)");
      }
    }
  }

  @Test
  void manySmallVariedItemsLoseHalfAMeanItemPerPageAsRenewalTheorySays() {
    // items of 36 or 44 bytes, half each: μ = 40, σ² = 16; E[K] ≈ C/μ − 1/2 − σ²/(2μ²), the
    // renewal limit for a page whose first item is size-biased (up to the lattice's wobble)
    double expected = 8168 / 40.0 - 0.5 - 16 / (2 * 40.0 * 40.0);
    assertEquals(expected, TableRewrite.itemsPerPage(40, 16, 8168), 0.1);
  }

  @Test
  void exactSumsGiveAnExactFigureAndSampledOnesCarryTheirError() {
    // 100 blocks; 5000 live tuples of t_len 100 (item 108): 75 to a page, 67 pages
    long n = 5000;
    Estimate tuples = Estimate.exact(n);
    Estimate items = Estimate.exact(n * 108);
    Estimate squares = Estimate.exact(Math.round(n * 108.0 * 108 / BLCKSZ));
    Estimate exact = TableRewrite.reclaimableBytes(100, 0, tuples, items, squares, 100);
    assertEquals(Estimate.exact((100 - 67) * (double) BLCKSZ), exact);
    assertEquals(Estimate.exact((100 - 67 - 2) * (double) BLCKSZ),
        TableRewrite.reclaimableBytes(100, 2, tuples, items, squares, 100), "bad pages are kept whole");

    // the same totals estimated with an SE of 1 % of the item bytes and t = 2
    double se = 0.01 * n * 108;
    Estimate sampled = TableRewrite.reclaimableBytes(100, 0, tuples,
        new Estimate(n * 108, se, n * 108 - 2 * se, n * 108 + 2 * se), squares, 100);
    double bytesPerPage = n * 108 / 67.0;
    assertEquals(exact.value(), sampled.value(), 1e-9);
    assertEquals(BLCKSZ * se / bytesPerPage, sampled.standardError(), 1e-9);
    assertEquals(sampled.value() - 2 * sampled.standardError(), sampled.low(), 1e-6);
    assertEquals(sampled.value() + 2 * sampled.standardError(), sampled.high(), 1e-6);
  }

  @Test
  void aRewriteAtALowerFillfactorThanTheRowsWereWrittenWithGrowsTheTable() {
    // 10 full pages of 75 rows each, rewritten at fillfactor 50: 4072 / 108 = 37 to a page, 21 pages
    Estimate r = TableRewrite.reclaimableBytes(10, 0, Estimate.exact(750), Estimate.exact(750 * 108),
        Estimate.exact(Math.round(750 * 108.0 * 108 / BLCKSZ)), 50);
    assertEquals(-11.0 * BLCKSZ, r.value());
  }

  private static IntSupplier uniform(SplittableRandom random, int[] range) {
    return () -> random.nextInt(range[0], range[1] + 1);
  }

  private static long replay(int fillfactor, int n, IntSupplier tupleLength) {
    NextFitRewrite rewrite = new NextFitRewrite(fillfactor);
    for (int i = 0; i < n; i++) {
      rewrite.add(tupleLength.getAsInt());
    }
    return rewrite.pages();
  }

  /** The model on the sums a scan would collect, page squares rounded as HeapPage rounds them. */
  private static double model(int fillfactor, int n, IntSupplier tupleLength) {
    long bytes = 0;
    long squareUnits = 0;
    long pageSquares = 0;
    int onPage = 0;
    for (int i = 0; i < n; i++) {
      int item = HeapPageStats.itemBytes(tupleLength.getAsInt());
      bytes += item;
      pageSquares += (long) item * item;
      if (++onPage == 50) { // any split into pages: each page's squares are rounded once
        squareUnits += HeapPageStats.squaresInBlockUnits(pageSquares);
        pageSquares = 0;
        onPage = 0;
      }
    }
    squareUnits += HeapPageStats.squaresInBlockUnits(pageSquares);
    long splitPages = (n + 49) / 50;
    return TableRewrite.pages(n, bytes, (double) squareUnits * BLCKSZ, splitPages * (BLCKSZ / 2.0),
        fillfactor);
  }
}
