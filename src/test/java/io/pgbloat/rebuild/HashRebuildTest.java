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
}
