package io.pgbloat.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BtreeRebuildTest {
  private static final int BLCKSZ = 8192;

  @Test
  void anIndexOfNoEntriesRebuildsToItsMetapage() {
    assertEquals(0.0, BtreeRebuild.reclaimableBytes(1, Estimate.exact(0), 0, 0, 90).value());
    // every page deleted: all but the metapage comes back
    assertEquals(9.0 * BLCKSZ, BtreeRebuild.reclaimableBytes(10, Estimate.exact(0), 0, 0, 90).value());
  }

  @Test
  void leavesAreRefilledToTheFillfactor() {
    double capacity = BtreeRebuild.leafCapacity(90);
    assertEquals(BtreeRebuild.MAX_AVAIL - 819, capacity); // BLCKSZ·10/100, truncated as C does
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
    assertEquals(1.0, BtreeRebuild.liveShare(Double.NaN, 1000)); // the table was not counted
    assertEquals(1.0, BtreeRebuild.liveShare(500, 0));
    assertEquals(0.75, BtreeRebuild.liveShare(750, 1000));
    assertEquals(1.0, BtreeRebuild.liveShare(5000, 1000)); // a partial index: fewer entries than rows
  }
}
