package io.pgbloat.rebuild;

import static io.pgbloat.page.PageHeader.BLCKSZ;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.page.GinPage;
import io.pgbloat.page.GinPendingKeys;
import io.pgbloat.page.GinTuples;
import io.pgbloat.stats.Estimate;
import io.pgbloat.stats.IndexMeasure;
import java.util.List;
import org.junit.jupiter.api.Test;

class GinRebuildTest {
  private static final Estimate ALL_KEPT = Estimate.exact(1);

  @Test
  void postingListsThinnedKeepTheirShareWithLongerDistances() {
    assertEquals(3000, GinRebuild.thinnedBytes(3000, 1000, 1));
    assertEquals(0, GinRebuild.thinnedBytes(3000, 1000, 0));
    // half the pointers: each distance doubles, one bit more, 1/7 of a byte a pointer
    assertEquals(0.5 * (3000 + 1000 / 7.0), GinRebuild.thinnedBytes(3000, 1000, 0.5), 1e-9);
    // with no pointers counted, the bytes alone scale
    assertEquals(1500, GinRebuild.thinnedBytes(3000, 0, 0.5));
  }

  @Test
  void listsOfPointersSpreadOverTheHeapTakeTheirDistancesBytes() {
    // 1000 pointers over 100 blocks: distances of 204.8 TIDs' integers, 8 bits, two varbyte bytes
    assertEquals(2, GinRebuild.listBytesPerPointer(100, 1000));
    // 10 pointers over 100 000 blocks: distances of 20 480 000, 25 bits, four bytes
    assertEquals(4, GinRebuild.listBytesPerPointer(100_000, 10));
    assertEquals(6, GinRebuild.listBytesPerPointer(0, 10)); // no heap to go by: uncompressed
  }

  @Test
  void aPendingListOfKeysTheTreeLacksAddsEntries() {
    java.util.Map<IndexMeasure, Estimate> totals = new java.util.EnumMap<>(IndexMeasure.class);
    for (IndexMeasure m : IndexMeasure.values()) {
      totals.put(m, Estimate.exact(0));
    }
    // an index made before its table was loaded: an empty root, every row in a pending list of
    // 6000 tuples over 1000 keys of 16 bytes (20 with their line pointers), a table of 300 blocks
    totals.put(IndexMeasure.PENDING_ITEMS, Estimate.exact(6000));
    Estimate none = GinRebuild.reclaimableBytes(60, totals::get, ALL_KEPT, GinPendingKeys.NONE, 300);
    Estimate keys = GinRebuild.reclaimableBytes(60, totals::get, ALL_KEPT, new GinPendingKeys(List.of(new GinPendingKeys.KeyGroup(6, 1000, 20_000))), 300);
    // the keys' 20 000 bytes and 6000 pointers of 3 bytes (distances of 300·2048/6, 17 bits):
    // 38 000 bytes of tuples of 38: the last leaf full, the others 108 tuples (4104 bytes) each,
    // 1 + ceil(29 840 / 4104) = 9 leaves under a root
    assertEquals((60 - 1 - 9 - 1) * (double) BLCKSZ, keys.value());
    assertTrue(keys.value() < none.value(), keys + " against " + none);
  }

  @Test
  void aPendingKeyOfManyTuplesGoesToAPostingTree() {
    java.util.Map<IndexMeasure, Estimate> totals = new java.util.EnumMap<>(IndexMeasure.class);
    for (IndexMeasure m : IndexMeasure.values()) {
      totals.put(m, Estimate.exact(0));
    }
    // 1000 keys of 20 bytes with 6 tuples each, and one with 2000: over 300 heap blocks its
    // pointers are 2 bytes each (distances of 307, 9 bits), 4000 bytes, more than an entry tuple holds
    GinPendingKeys.KeyGroup few = new GinPendingKeys.KeyGroup(6, 1000, 20_000);
    GinPendingKeys.KeyGroup hot = new GinPendingKeys.KeyGroup(2000, 1, 20);
    Estimate without = GinRebuild.reclaimableBytes(60, totals::get, ALL_KEPT, new GinPendingKeys(List.of(few)),
        300);
    Estimate with = GinRebuild.reclaimableBytes(60, totals::get, ALL_KEPT,
        new GinPendingKeys(List.of(few, hot)), 300);
    // the same entry leaves and root, and a posting tree of one leaf
    assertEquals(without.value() - BLCKSZ, with.value());
  }

  @Test
  void deletedRowsLeaveTheListsABuildWrites() {
    java.util.Map<IndexMeasure, Estimate> totals = new java.util.EnumMap<>(IndexMeasure.class);
    for (IndexMeasure m : IndexMeasure.values()) {
      totals.put(m, Estimate.exact(0));
    }
    // 2000 keys of 16 bytes with inline lists of 200 bytes for 100 pointers each (line pointers in)
    totals.put(IndexMeasure.ENTRY_LEAF_SPACE, Estimate.exact(2000 * 220));
    totals.put(IndexMeasure.ENTRY_LEAF_ITEMS, Estimate.exact(2000));
    totals.put(IndexMeasure.INLINE_HEAP_POINTERS, Estimate.exact(2000 * 100));
    totals.put(IndexMeasure.INLINE_POSTING_BYTES, Estimate.exact(2000 * 200));
    Estimate all = GinRebuild.reclaimableBytes(200, totals::get, ALL_KEPT, GinPendingKeys.NONE, 0);
    Estimate quarter = GinRebuild.reclaimableBytes(200, totals::get, Estimate.exact(0.25), GinPendingKeys.NONE, 0);
    // a quarter of the pointers, at 2 + 2/7 bytes each: 20 + 57.1 bytes a tuple, 105 fit a page,
    // 54 a page but the last, which is full
    double tuple = 20 + 0.25 * (200 + 100 * 2 / 7.0);
    double leaves = 1 + Math.ceil((2000 * tuple - GinPage.ENTRY_PAGE_ROOM) / (54 * tuple));
    assertEquals((200 - 1 - leaves - 1) * (double) BLCKSZ, quarter.value(), 1e-6);
    assertTrue(quarter.value() > all.value(), quarter + " against " + all);
  }
  @Test
  void aSplitLeavesItsLeftPageJustOverHalf() {
    assertEquals(8160, GinPage.ENTRY_PAGE_ROOM);
    assertEquals(8152, GinPage.GIN_DATA_PAGE_MAX_DATA_SIZE);
    // tuples of 240 bytes: 34 fit, the left page takes 18 of the 35
    assertEquals(18 * 240, GinTuples.splitLeftRoom(240));
    // the largest tuples, three a page: the left page keeps all three, the fourth goes right
    assertEquals(3 * 2700, GinTuples.splitLeftRoom(2700));
    // a page of tuples of 240 bytes (16 of them) takes the room of 16/18 of a page in a build
    assertEquals(Math.round(16 * 240 * 8160 / (18 * 240.0)), new GinTuples(16, 16 * 240, 0, 0, 0, false, false).buildRoom());
  }

  @Test
  void sortedInsertsLeaveTheirPagesAtTheLeftRoomAndFillTheLast() {
    // 2000 tuples of 240 bytes: a full last page, the rest 4320 bytes a page: 1 + ceil(471 840 / 4320)
    assertEquals(1 + 110, GinRebuild.pagesOfSortedInserts(2000 * 240, 18 * 240));
    assertEquals(1, GinRebuild.pagesOfSortedInserts(100, 100));
    assertEquals(1, GinRebuild.pagesOfSortedInserts(8160, 4320));
    assertEquals(0, GinRebuild.pagesOfSortedInserts(0, 4320));
  }

  @Test
  void aBuildHasAMetapageEntryLevelsAndPackedPostingTrees() {
    double left = GinTuples.splitLeftRoom(240);
    // one leaf: the metapage and the root leaf
    assertEquals(2, GinRebuild.freshBlocks(1000, 10, left, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    // 111 leaves under a root of 111 downlinks of 24 bytes
    assertEquals(1 + 111 + 1, GinRebuild.freshBlocks(2000 * 240, 2000, left, 111 * 24, 111, 0, 0, 0, 0, 0, 0, 0));
    // without inner pages to go by, a downlink is taken as large as a leaf tuple: 6 pages, then a root
    assertEquals(1 + 111 + 6 + 1, GinRebuild.freshBlocks(2000 * 240, 2000, left, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    // 10 000 pending tuples at 2 bytes a heap pointer add 20 kB to the leaves: 1 + ceil(491 840 / 4320)
    assertEquals(1 + 115 + 1, GinRebuild.freshBlocks(2000 * 240, 2000, left, 111 * 24, 111, 10_000, 2, 0, 0, 0, 0, 0));
    // 3 posting trees of 20 kB in all: a leaf each at least; 60 kB: packed into 8 leaves
    assertEquals(2 + 3, GinRebuild.freshBlocks(1000, 10, left, 0, 0, 0, 0, 3, 20_000, 0, 0, 0));
    assertEquals(2 + 8 + 2, GinRebuild.freshBlocks(1000, 10, left, 0, 0, 0, 0, 3, 60_000, 2, 0, 0));
    // 50 one-leaf trees of 1 kB each beside 3 with a root: a build keeps the 50 lists inline
    // (the leaves: 48 kB of keys and 50 kB of lists, 1 + ceil(89 840 / 4320) pages, a root; 3 trees of a leaf and a root)
    assertEquals(1 + 22 + 1 + 3 + 3,
        GinRebuild.freshBlocks(2000 * 24, 2000, left, 0, 0, 0, 0, 53, 53_000, 3, 53, 53_000));
  }

  @Test
  void downlinksOfDamagedSizeStillEndInARoot() {
    // tuples of 8000 bytes (a damaged page's line pointers): no page holds two, yet the levels end
    assertTrue(GinRebuild.freshBlocks(10 * 8000, 10, 8000, 0, 0, 0, 0, 0, 0, 0, 0, 0) < 30);
    // an interval's unbounded end stays unbounded, and ends
    assertEquals(Double.POSITIVE_INFINITY,
        GinRebuild.freshBlocks(Double.POSITIVE_INFINITY, 10, 4000, 0, 0, 0, 0, 0, 0, 0, 0, 0));
  }

  @Test
  void whatAReindexGivesBack() {
    java.util.Map<IndexMeasure, Estimate> totals = new java.util.EnumMap<>(IndexMeasure.class);
    for (IndexMeasure m : IndexMeasure.values()) {
      totals.put(m, Estimate.exact(0));
    }
    totals.put(IndexMeasure.ENTRY_LEAF_SPACE, Estimate.exact(2000 * 240));
    totals.put(IndexMeasure.ENTRY_LEAF_ITEMS, Estimate.exact(2000));
    totals.put(IndexMeasure.ENTRY_INNER_SPACE, Estimate.exact(112 * 24));
    totals.put(IndexMeasure.ENTRY_INNER_ITEMS, Estimate.exact(112));
    Estimate exact = GinRebuild.reclaimableBytes(200, totals::get, ALL_KEPT, GinPendingKeys.NONE, 0);
    assertTrue(exact.isExact());
    assertEquals((200 - 113) * (double) BLCKSZ, exact.value());
    totals.put(IndexMeasure.ENTRY_LEAF_SPACE, new Estimate(2000 * 240, 20_000, 440_000, 520_000));
    Estimate sampled = GinRebuild.reclaimableBytes(200, totals::get, ALL_KEPT, GinPendingKeys.NONE, 0);
    assertTrue(sampled.low() < sampled.value() && sampled.value() < sampled.high(), sampled.toString());
    // a share of heap pointers kept known in part widens the interval, though the pages were read whole
    totals.put(IndexMeasure.ENTRY_LEAF_SPACE, Estimate.exact(2000 * 240));
    totals.put(IndexMeasure.INLINE_HEAP_POINTERS, Estimate.exact(2000 * 100));
    totals.put(IndexMeasure.INLINE_POSTING_BYTES, Estimate.exact(2000 * 200));
    Estimate share = GinRebuild.reclaimableBytes(200, totals::get, new Estimate(0.5, 0.05, 0.4, 0.6),
        GinPendingKeys.NONE, 0);
    assertTrue(share.high() - share.low() >= 2 * BLCKSZ, share.toString());
  }
}
