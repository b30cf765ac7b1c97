package io.pgbloat.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexPageKind;
import io.pgbloat.page.IndexPageStats;
import io.pgbloat.io.read.BlockList;
import io.pgbloat.rebuild.IndexBuild;
import io.pgbloat.sample.IndexWholeBlocks;
import io.pgbloat.stats.Estimate;
import io.pgbloat.stats.IndexMeasure;
import io.pgbloat.stats.IndexPageSums;
import io.pgbloat.stats.StratifiedEstimator;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A page kind every page of which the plan read whole (a hash index's bitmap pages, listed in
 * its metapage) is counted exactly: the sample cannot hold one. Without that knowledge the
 * same sample leaves the count an interval from what was read up.
 */
class KindsReadWholeTest {
  private static final long BLOCKS = 300;

  private static IndexPageStats page(long block, IndexPageKind kind) {
    return new IndexPageStats(block, kind, 10, 160, 0, 0, 6000, 6000, 0, 0, 0, false, null, null);
  }

  /** The metapage, the bitmap page at block 1 read whole, and 40 sampled pages of {@code sampledKind} at first. */
  private static IndexPageSums sums(IndexPageKind sampledKind) {
    IndexPageSums sums = new IndexPageSums(IndexAccessMethod.HASH);
    sums.add(page(0, IndexPageKind.META), false);
    sums.add(page(1, IndexPageKind.BITMAP), true);
    sums.add(page(2, sampledKind), false);
    for (long b = 3; b < 42; b++) {
      sums.add(page(b * 7, IndexPageKind.BUCKET), false);
    }
    return sums;
  }

  private static Estimate bitmapPages(IndexPageSums sums, Set<IndexPageKind> kindsAllRead) {
    return IndexPageEstimates.of(IndexAccessMethod.HASH, BLOCKS, sums,
        new IndexWholeBlocks(BlockList.of(1), kindsAllRead, null), null, new IndexBuild(75, false),
        new StratifiedEstimator(0.95)).afterFirst(IndexMeasure.BITMAP_PAGES);
  }

  @Test
  void aKindReadWholeIsCountedExactly() {
    assertEquals(Estimate.exact(1), bitmapPages(sums(IndexPageKind.BUCKET), Set.of(IndexPageKind.BITMAP)));
  }

  @Test
  void withoutKnowingItTheCountIsAnIntervalFromWhatWasRead() {
    Estimate e = bitmapPages(sums(IndexPageKind.BUCKET), Set.of());
    assertEquals(1, e.value());
    assertEquals(1, e.low());
    assertTrue(e.high() > 1 && e.standardError() > 0, e.toString());
  }

  @Test
  void aSampledPageOfTheKindStillCountsWithItsSpread() {
    // the metapage listed one bitmap page, and the sample found another: damage, not hidden
    Estimate e = bitmapPages(sums(IndexPageKind.BITMAP), Set.of(IndexPageKind.BITMAP));
    assertFalse(e.isExact(), e.toString());
    assertTrue(e.low() >= 2 && e.value() > 2, e.toString());
  }
}
