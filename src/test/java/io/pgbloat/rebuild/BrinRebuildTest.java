package io.pgbloat.rebuild;

import static io.pgbloat.page.PageHeader.BLCKSZ;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.stats.Estimate;
import org.junit.jupiter.api.Test;

class BrinRebuildTest {
  @Test
  void summaryTuplesArePackedAfterTheRangeMap() {
    assertEquals(8160, io.pgbloat.page.BrinPage.REGULAR_PAGE_ROOM);
    assertEquals(2.0, BrinRebuild.freshBlocks(0, 0)); // the metapage and a range map page
    // 1000 tuples of 20 bytes (24 aligned, 28 with the line pointer): 291 a page, 4 pages
    assertEquals(1 + 1 + 4, BrinRebuild.freshBlocks(1000, 20_000));
    // 3000 ranges need three range map pages
    assertEquals(1 + 3 + 11, BrinRebuild.freshBlocks(3000, 60_000));
  }

  @Test
  void whatAReindexGivesBack() {
    Estimate exact = BrinRebuild.reclaimableBytes(10, Estimate.exact(1000), Estimate.exact(20_000));
    assertTrue(exact.isExact());
    assertEquals(4.0 * BLCKSZ, exact.value());
    Estimate sampled = BrinRebuild.reclaimableBytes(10, new Estimate(1000, 100, 800, 1200),
        new Estimate(20_000, 2000, 16_000, 24_000));
    assertTrue(sampled.low() <= sampled.value() && sampled.value() <= sampled.high(), sampled.toString());
    assertEquals(Double.NaN, BrinRebuild.reclaimableBytes(10, Estimate.unknown(), Estimate.exact(0)).value());
  }
}
