package io.pgbloat.rebuild;

import static io.pgbloat.page.PageHeader.BLCKSZ;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.page.BtreePage;
import io.pgbloat.stats.Estimate;
import org.junit.jupiter.api.Test;

class BtreeRebuildTest {
  @Test
  void anIndexOfNoEntriesRebuildsToItsMetapage() {
    assertEquals(0.0, BtreeRebuild.reclaimableBytes(1, Estimate.exact(0), 0, 0, 90).value());
    // every page deleted: all but the metapage comes back
    assertEquals(9.0 * BLCKSZ, BtreeRebuild.reclaimableBytes(10, Estimate.exact(0), 0, 0, 90).value());
  }

  @Test
  void leavesAreRefilledToTheFillfactor() {
    double capacity = BtreeRebuild.leafCapacity(90);
    assertEquals(BtreePage.MAX_AVAIL - 819, capacity); // BLCKSZ·10/100, truncated as C does
    // 100 leaves a third full, 1 internal page: 34 leaves and a root remain
    Estimate r = BtreeRebuild.reclaimableBytes(102, Estimate.exact(100 * capacity / 3), 100, 1, 90);
    assertEquals((102 - (1 + 34 + 1)) * (double) BLCKSZ, r.value());
    assertTrue(r.isExact());
    // a lower fillfactor makes the build larger than leaves packed fuller: a negative figure
    assertTrue(BtreeRebuild.reclaimableBytes(102, Estimate.exact(100 * capacity), 100, 1, 50).value() < 0);
  }

  @Test
  void moreUsedBytesMeanLessToGiveBack() {
    double capacity = BtreeRebuild.leafCapacity(90);
    Estimate used = new Estimate(50 * capacity, 2 * capacity, 46 * capacity, 54 * capacity);
    Estimate r = BtreeRebuild.reclaimableBytes(200, used, 150, 2, 90);
    assertFalse(r.isExact());
    assertTrue(r.low() < r.value() && r.value() < r.high(), r.toString());
    assertEquals(2.0 * BLCKSZ, r.standardError(), 1e-9);
    assertEquals(Double.NaN, BtreeRebuild.reclaimableBytes(200, Estimate.unknown(), 0, 0, 90).value());
  }

  @Test
  void entriesOfRowsDeletedSinceVacuumAreTakenOutWhenTheTableWasCounted() {
    Estimate bytes = Estimate.exact(100_000);
    assertEquals(bytes, BtreeRebuild.keptBytes(bytes, null, 1000)); // the table was not counted
    assertEquals(bytes, BtreeRebuild.keptBytes(bytes, Estimate.exact(500), 0));
    assertEquals(Estimate.exact(75_000), BtreeRebuild.keptBytes(bytes, Estimate.exact(750), 1000));
    assertEquals(bytes, BtreeRebuild.keptBytes(bytes, Estimate.exact(5000), 1000)); // a partial index
    // a sampled table count: its relative error goes into the kept bytes
    Estimate kept = BtreeRebuild.keptBytes(bytes, new Estimate(750, 75, 600, 900), 1000);
    assertEquals(75_000, kept.value(), 1e-9);
    assertEquals(7_500, kept.standardError(), 1e-9);
    assertTrue(kept.low() <= 60_000 && kept.high() >= 90_000 && kept.high() <= 100_000, kept.toString());
  }
}
