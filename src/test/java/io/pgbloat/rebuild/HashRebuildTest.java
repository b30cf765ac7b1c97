package io.pgbloat.rebuild;

import static io.pgbloat.page.PageHeader.BLCKSZ;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.stats.Estimate;
import org.junit.jupiter.api.Test;

class HashRebuildTest {
  /** _hash_spareindex and _hash_get_totalbuckets as hashutil.c computes them, by hand. */
  @Test
  void bucketsRoundUpToAWholeSplitPointPhase() {
    assertEquals(0, HashRebuild.spareIndex(1));
    assertEquals(2, HashRebuild.spareIndex(3));
    assertEquals(9, HashRebuild.spareIndex(512));
    assertEquals(10, HashRebuild.spareIndex(513)); // the first group of four phases
    assertEquals(11, HashRebuild.spareIndex(641));
    assertEquals(512, HashRebuild.totalBuckets(9));
    assertEquals(640, HashRebuild.totalBuckets(10));
    assertEquals(768, HashRebuild.totalBuckets(11));
    assertEquals(1024, HashRebuild.totalBuckets(13));
    assertEquals(1280, HashRebuild.totalBuckets(14));
    for (long n = 1; n < 5000; n++) {
      long total = HashRebuild.totalBuckets(HashRebuild.spareIndex(n));
      assertTrue(total >= n && total < 2 * n + 2, n + " buckets rounded to " + total);
    }
  }

  @Test
  void aBuildChoosesBucketsForTheTuplesAtTheFillfactor() {
    assertEquals(307, HashRebuild.ffactor(75)); // 8192·75/100 / 20
    assertEquals(10, HashRebuild.ffactor(1)); // kept to a sane range
    assertEquals(2, HashRebuild.buckets(0, 75));
    assertEquals(128, HashRebuild.buckets(24000, 75)); // 78.2 buckets, phase of 128
    assertEquals(1 + 128 + 1, HashRebuild.freshBlocks(24000, 75));
  }

  @Test
  void whatAReindexGivesBack() {
    Estimate exact = HashRebuild.reclaimableBytes(582, Estimate.exact(24000), 75);
    assertTrue(exact.isExact());
    assertEquals((582 - 130) * (double) BLCKSZ, exact.value());
    // the interval is the model at the ends of the items' interval: fewer items, fewer buckets
    Estimate sampled = HashRebuild.reclaimableBytes(582, new Estimate(24000, 4000, 15000, 33000), 75);
    assertEquals((582 - 130) * (double) BLCKSZ, sampled.value());
    assertEquals((582 - 2 - 64) * (double) BLCKSZ, sampled.high()); // 15000 items: 48.9 buckets, a phase of 64
    assertEquals((582 - 2 - 128) * (double) BLCKSZ, sampled.low()); // 33000: 107.5, still 128
    assertEquals(4000.0 * BLCKSZ / 307, sampled.standardError(), 1e-6);
  }

  /**
   * Builds that split as they go, measured on PostgreSQL 15 (REINDEX of a table never vacuumed,
   * its rows narrower than the width guess): the estimate of 127 rows a page for the table's
   * blocks, the rows it holds, the blocks the build wrote. The overflow pages are an expectation,
   * so within a few pages.
   */
  @Test
  void aBuildExpectingTooFewSplitsAndOverflows() {
    assertEquals(130, HashRebuild.builtBlocks(127 * 89, 20000, 75)); // 64 buckets split into the phase of 128
    assertEquals(275, HashRebuild.builtBlocks(127 * 222, 50000, 75), 3);
    assertEquals(546, HashRebuild.builtBlocks(127 * 443, 100000, 75), 6);
    assertEquals(848, HashRebuild.builtBlocks(127 * 885, 200000, 75), 6);
    // 768 buckets at first: the unsplit half hold a page and a half each before the splits begin
    assertEquals(1791, HashRebuild.builtBlocks(127 * 1770, 400000, 75), 6);
  }

  @Test
  void aBuildExpectingMoreThanItInsertsKeepsItsBuckets() {
    // 112965 expected: 368 buckets wanted, 512 allocated, and the 100000 inserted fill them to 195
    assertEquals(1 + 512 + 1, HashRebuild.builtBlocks(112965, 100000, 75));
    assertEquals(HashRebuild.builtBlocks(112965, 100000, 75), HashRebuild.builtBlocks(112965, 1000, 75));
  }

  @Test
  void bucketsFilledPastAPageOverflowEvenInAFreshBuild() {
    // fillfactor 100: ffactor 409 tuples, a page holds 407; 100000 tuples in 256 buckets, measured 304 blocks
    assertEquals(304, HashRebuild.builtBlocks(100000, 100000, 100), 5);
    assertEquals(1 + 512 + 1, HashRebuild.builtBlocks(100000, 100000, 90)); // 271 wanted: 512, half full
  }

  @Test
  void aBuildInsertsTheLiveRowsAlone() {
    Estimate items = Estimate.exact(60000); // entries of rows updated since the last VACUUM among them
    assertEquals(30000, HashRebuild.insertedTuples(items, Estimate.exact(0.5)).value());
    assertEquals(60000, HashRebuild.insertedTuples(items, Estimate.exact(1)).value());
    // a table of 70000 live rows of 100000 indexed pointers whose NULL keys the index leaves out:
    // its entries are thinned as the rows are, not taken at the live rows' count
    assertEquals(42000, HashRebuild.insertedTuples(items, Estimate.exact(0.7)).value(), 1e-6);
    Estimate sampled = HashRebuild.insertedTuples(new Estimate(60000, 600, 58800, 61200), new Estimate(0.5, 0.01, 0.48, 0.52));
    assertEquals(30000, sampled.value(), 1e-6);
    assertTrue(sampled.low() <= 58800 * 0.48 + 1e-6 && sampled.high() >= 61200 * 0.52 - 1e-6);
  }

  @Test
  void whatAReindexGivesBackWhenTheBuildExpectsAnEstimate() {
    // 30000 live rows; a build expecting 127 rows a page of 500 allocates 256 buckets, one expecting 30000 128
    Estimate reclaimable = HashRebuild.reclaimableBytes(293, Estimate.exact(30000), 63500, 75);
    assertEquals((293 - 258) * (double) BLCKSZ, reclaimable.value());
    assertEquals((293 - 130) * (double) BLCKSZ, HashRebuild.reclaimableBytes(293, Estimate.exact(30000), 75).value());
  }
}
