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
  void aDeduplicatedRunGoesOnlyWithItsLastTid() {
    // 10 000 unique keys of 20 bytes a tuple, each updated once without a VACUUM: runs of two TIDs, one live
    BtreeRebuild.LeafRuns pairs = new BtreeRebuild.LeafRuns(0, 0, 10_000, 200_000, 20_000, 0, 0, 0, 0);
    Estimate pairBytes = Estimate.exact(10_000 * 32);
    Estimate kept = BtreeRebuild.keptDeduplicatedBytes(pairBytes, pairs, Estimate.exact(0.5), 0);
    assertEquals(200_000, kept.value(), 1e-6); // every run stays, down to its one live TID
    assertTrue(kept.low() <= 160_000 && kept.high() >= 200_000, kept.toString());
    // 10 000 unique keys, a fifth of the rows deleted: a fifth of the runs go
    BtreeRebuild.LeafRuns singles = new BtreeRebuild.LeafRuns(10_000, 200_000, 0, 0, 0, 0, 0, 0, 0);
    assertEquals(160_000,
        BtreeRebuild.keptDeduplicatedBytes(Estimate.exact(200_000), singles, Estimate.exact(0.8), 1).value(), 1e-6);
    // and when the updates changed the keys, no more runs stay than live TIDs
    assertEquals(160_000,
        BtreeRebuild.keptDeduplicatedBytes(Estimate.exact(200_000), singles, Estimate.exact(0.8), 0).value(), 1e-6);
    // 40 runs of a thousand rows, half of them deleted: every run stays, with half its TIDs
    BtreeRebuild.LeafRuns many = new BtreeRebuild.LeafRuns(0, 0, 0, 0, 0, 40, 800, 40_000, 0);
    Estimate manyBytes = Estimate.exact(800 + 6 * 40_000);
    assertEquals(800 + 6 * 20_000, BtreeRebuild.keptDeduplicatedBytes(manyBytes, many, Estimate.exact(0.5), 1)
        .value(), 1e-6);
    // runs of four, three in four TIDs left out, every one a version updated away: one TID a run, plain tuples
    BtreeRebuild.LeafRuns fours = new BtreeRebuild.LeafRuns(0, 0, 0, 0, 0, 1000, 20_000, 4000, 0);
    assertEquals(20_000, BtreeRebuild.keptDeduplicatedBytes(Estimate.exact(20_000 + 6 * 4000 + 1000 * 4), fours,
        Estimate.exact(0.25), 0).value(), 1e-6);
    // nothing left out: the bytes as they are
    assertEquals(manyBytes, BtreeRebuild.keptDeduplicatedBytes(manyBytes, many, Estimate.exact(1), 1));
  }

  @Test
  void anIndexOfNoEntriesRebuildsToItsMetapage() {
    assertEquals(0.0, BtreeRebuild.reclaimableBytes(1, Estimate.exact(0), 0, 0, 0).value());
    // every page deleted: all but the metapage comes back
    assertEquals(9.0 * BLCKSZ, BtreeRebuild.reclaimableBytes(10, Estimate.exact(0), 0, 0, 0).value());
  }

  @Test
  void leavesAreRefilledToTheRoomTheirEntriesTake() {
    // 100 leaves whose entries take a third of a build leaf each, 1 internal page: 34 leaves and a root remain
    Estimate r = BtreeRebuild.reclaimableBytes(102, Estimate.exact(100 * BtreePage.MAX_AVAIL / 3.0), 100, 1, 0);
    assertEquals((102 - (1 + 34 + 1)) * (double) BLCKSZ, r.value());
    assertTrue(r.isExact());
    // entries that take more room than the leaves they are on (a lower fillfactor): a negative figure
    assertTrue(BtreeRebuild.reclaimableBytes(102, Estimate.exact(150 * BtreePage.MAX_AVAIL), 100, 1, 0).value() < 0);
  }

  @Test
  void internalLevelsHoldTheLeavesDownlinksAtTheNonleafFillfactor() {
    // pivots of 16 bytes and a line pointer: (8144 - 2457) / 20 = 284 a page
    assertEquals(284, BtreeRebuild.downlinksPerPage(20));
    // 1000 leaves: 4 internal pages, then a root
    assertEquals(1 + 1000 + 4 + 1, BtreeRebuild.freshBlocks(1000 * BtreePage.MAX_AVAIL, 40, 1, 20));
    // with no high key to go by, in proportion to now, a root at least
    assertEquals(1 + 1000 + 25, BtreeRebuild.freshBlocks(1000 * BtreePage.MAX_AVAIL, 40, 1, 0));
    assertEquals(1 + 1, BtreeRebuild.freshBlocks(100, 1, 0, 0)); // one leaf: the root
    // an interval's unbounded end stays unbounded, and ends
    assertEquals(Double.POSITIVE_INFINITY, BtreeRebuild.freshBlocks(Double.POSITIVE_INFINITY, 40, 1, 20));
  }

  @Test
  void theRoomOfTheEntriesKeptIsTheirBytesAtTheRoomAByteTakes() {
    Estimate room = Estimate.exact(3 * BtreePage.MAX_AVAIL);
    // half the bytes kept: half the room
    assertEquals(1.5 * BtreePage.MAX_AVAIL,
        BtreeRebuild.keptRoom(room, Estimate.exact(10_000), Estimate.exact(20_000)).value(), 1e-9);
    Estimate sampled = BtreeRebuild.keptRoom(room, new Estimate(10_000, 500, 9_000, 11_000), Estimate.exact(20_000));
    assertEquals(0.45 * room.value(), sampled.low(), 1e-9);
    assertEquals(0.55 * room.value(), sampled.high(), 1e-9);
    // the runs model's own range, without an SE (every page read), is kept: not claimed exact
    Estimate modelled = BtreeRebuild.keptRoom(room, new Estimate(10_000, 0, 8_000, 12_000), Estimate.exact(20_000));
    assertEquals(0.4 * room.value(), modelled.low(), 1e-9);
    Estimate wide = BtreeRebuild.keptRoom(Estimate.exact(30 * BtreePage.MAX_AVAIL), new Estimate(10_000, 0, 8_000,
        12_000), Estimate.exact(20_000)); // 15 leaves, 12 to 18
    Estimate figure = BtreeRebuild.reclaimableBytes(40, wide, 30, 1, 0);
    assertTrue(figure.low() < figure.high(), figure.toString());
  }

  @Test
  void moreRoomMeansLessToGiveBack() {
    double leaf = BtreePage.MAX_AVAIL;
    Estimate used = new Estimate(50 * leaf, 2 * leaf, 46 * leaf, 54 * leaf);
    Estimate r = BtreeRebuild.reclaimableBytes(200, used, 150, 2, 0);
    assertFalse(r.isExact());
    assertTrue(r.low() < r.value() && r.value() < r.high(), r.toString());
    assertEquals(2.0 * BLCKSZ, r.standardError(), 1e-9);
    assertEquals(Double.NaN, BtreeRebuild.reclaimableBytes(200, Estimate.unknown(), 0, 0, 0).value());
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
