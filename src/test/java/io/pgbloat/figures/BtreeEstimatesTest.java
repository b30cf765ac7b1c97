package io.pgbloat.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.page.BtreeLeafEntries;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexMetapage;
import io.pgbloat.page.IndexPageKind;
import io.pgbloat.page.IndexPageStats;
import io.pgbloat.rebuild.IndexBuild;
import io.pgbloat.sample.IndexWholeBlocks;
import io.pgbloat.stats.Estimate;
import io.pgbloat.stats.IndexMeasure;
import io.pgbloat.stats.IndexPageSums;
import io.pgbloat.stats.StratifiedEstimator;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The sampled btree figures: a full read gives pgstatindex's exact figures with SE 0, and the
 * 95 % intervals of samples cover the truth of a known population about 95 % of the time.
 */
class BtreeEstimatesTest {
  private static final IndexMetapage META = IndexMetapage.btree(4, 7, 2, true);
  private static final int MAX_AVAIL = 8152;
  private static final IndexPageStats METAPAGE = page(0, IndexPageKind.META, 0, false, null);

  private static IndexPageStats page(long block, IndexPageKind kind, int free, boolean fragment,
      BtreeLeafEntries.Bytes build) {
    return new IndexPageStats(block, kind, 0, 0, 0, 0, free, 0, build == null ? 0 : build.tids(), 0, 0, fragment, build,
        null);
  }

  /** A population like a bloated index: leaves of varied fullness, some out of order, deleted pages. */
  static List<IndexPageStats> population(int pages, long seed) {
    Random random = new Random(seed);
    List<IndexPageStats> all = new ArrayList<>();
    for (int block = 1; block <= pages; block++) {
      double u = random.nextDouble();
      if (u < 0.03) {
        all.add(page(block, IndexPageKind.INNER, random.nextInt(3000), false, null));
      } else if (u < 0.10) {
        all.add(page(block, IndexPageKind.DELETED, 0, false, null));
      } else {
        int free = random.nextDouble() < 0.5 ? random.nextInt(800) : random.nextInt(MAX_AVAIL);
        all.add(page(block, IndexPageKind.LEAF, free, random.nextDouble() < 0.3,
            new BtreeLeafEntries.Bytes(MAX_AVAIL - free, MAX_AVAIL - free, 100, 0, MAX_AVAIL - free, MAX_AVAIL - free, new BtreeLeafEntries.Runs(100, MAX_AVAIL - free, 100), BtreeLeafEntries.Runs.NONE, BtreeLeafEntries.Runs.NONE, true)));
      }
    }
    return all;
  }

  private static IndexPageSums sum(List<IndexPageStats> pages) {
    IndexPageSums sums = new IndexPageSums();
    pages.forEach(p -> sums.add(p, false));
    return sums;
  }

  private static IndexPageEstimates estimate(long blocks, IndexPageSums sums, IndexMetapage meta) {
    return IndexPageEstimates.of(IndexAccessMethod.BTREE, blocks, sums, IndexWholeBlocks.NONE, meta, new IndexBuild(90, true),
        new StratifiedEstimator(0.95));
  }

  /** pgstatindex's page counts and percentages, and what a REINDEX gives back. */
  private static List<Estimate> figures(IndexPageEstimates e) {
    return List.of(e.total(IndexMeasure.INTERNAL_PAGES), e.total(IndexMeasure.LEAF_PAGES),
        e.total(IndexMeasure.HALF_DEAD_PAGES), e.total(IndexMeasure.DELETED_PAGES), e.avgLeafDensity(),
        e.leafFragmentation(), e.reclaimableBytes());
  }

  private static boolean isExact(IndexPageEstimates e) {
    return figures(e).stream().allMatch(Estimate::isExact);
  }

  /** What each kind of btree page adds to pgstatindex's sums, as pgstatindex_impl adds it. */
  @Test
  void eachPageKindAddsToPgstatindexsSums() {
    IndexPageStats leaf = page(1, IndexPageKind.LEAF, 700, true, new BtreeLeafEntries.Bytes(7000, 6000, 90, 0, 7800, 6700, new BtreeLeafEntries.Runs(90, 6000, 90), BtreeLeafEntries.Runs.NONE, BtreeLeafEntries.Runs.NONE, true));
    assertEquals(1, IndexMeasure.LEAF_PAGES.of(leaf));
    assertEquals(700, IndexMeasure.LEAF_FREE_SPACE.of(leaf));
    assertEquals(1, IndexMeasure.FRAGMENTS.of(leaf));
    assertEquals(7000, IndexMeasure.LEAF_BUILD_BYTES.of(leaf));
    assertEquals(6000, IndexMeasure.LEAF_DEDUPLICATED_BUILD_BYTES.of(leaf));
    assertEquals(7800, IndexMeasure.LEAF_BUILD_ROOM.of(leaf));
    assertEquals(6700, IndexMeasure.LEAF_DEDUPLICATED_BUILD_ROOM.of(leaf));
    assertEquals(90, IndexMeasure.HEAP_ITEMS.of(leaf));
    assertEquals(0, IndexMeasure.INTERNAL_PAGES.of(leaf) + IndexMeasure.HALF_DEAD_PAGES.of(leaf)
        + IndexMeasure.DELETED_PAGES.of(leaf) + IndexMeasure.UNDECODED_LEAVES.of(leaf));
    // PG 13-18 count a new page as internal
    assertEquals(1, IndexMeasure.INTERNAL_PAGES.of(page(5, IndexPageKind.NEW, 0, false, null)));
    assertEquals(1, IndexMeasure.INTERNAL_PAGES.of(page(3, IndexPageKind.INNER, 100, false, null)));
    IndexPageStats halfDead = page(2, IndexPageKind.HALF_DEAD, 8000, false, null);
    assertEquals(1, IndexMeasure.HALF_DEAD_PAGES.of(halfDead));
    assertEquals(0, IndexMeasure.LEAF_PAGES.of(halfDead) + IndexMeasure.LEAF_FREE_SPACE.of(halfDead));
    IndexPageStats bad = IndexPageStats.bad(4, "checksum mismatch");
    assertEquals(0, IndexMeasure.LEAF_PAGES.of(bad) + IndexMeasure.INTERNAL_PAGES.of(bad)
        + IndexMeasure.LEAF_FREE_SPACE.of(bad));
    assertEquals(1, IndexMeasure.UNDECODED_LEAVES.of(page(6, IndexPageKind.LEAF, 100, false,
        new BtreeLeafEntries.Bytes(8052, 8052, 0, 0, 8952, 8952, BtreeLeafEntries.Runs.NONE, BtreeLeafEntries.Runs.NONE, BtreeLeafEntries.Runs.NONE, false))));
  }

  @Test
  void fullReadIsExactAndEqualsPgstatindexArithmetic() {
    List<IndexPageStats> pages = population(2000, 1);
    IndexPageSums sums = sum(pages);
    sums.add(METAPAGE, false); // block 0: apart, adds nothing
    IndexPageEstimates e = estimate(pages.size() + 1, sums, META);
    assertTrue(isExact(e));
    IndexFigures f = IndexFigures.of(META, pages.size() + 1, IndexTotals.read(sums));
    assertEquals(f.internalPages(), e.total(IndexMeasure.INTERNAL_PAGES).value());
    assertEquals(f.leafPages(), e.total(IndexMeasure.LEAF_PAGES).value());
    assertEquals(f.emptyPages(), e.total(IndexMeasure.HALF_DEAD_PAGES).value());
    assertEquals(f.deletedPages(), e.total(IndexMeasure.DELETED_PAGES).value());
    assertEquals(f.avgLeafDensity(), e.avgLeafDensity().value());
    assertEquals(f.leafFragmentation(), e.leafFragmentation().value());
    assertEquals(0.0, e.avgLeafDensity().standardError());
    assertEquals(e.avgLeafDensity().value(), e.avgLeafDensity().low());
  }

  @Test
  void aBadMetapageDoesNotStandInForAnUnreadPage() {
    List<IndexPageStats> pages = population(200, 3);
    IndexPageSums sums = sum(pages.subList(0, 199)); // the last page not read
    sums.add(IndexPageStats.bad(0, "checksum mismatch"), false);
    assertEquals(1, sums.badPages());
    assertEquals(0, sums.badPagesAfterFirst());
    assertTrue(!isExact(estimate(201, sums, META)));
    sums.add(pages.get(199), false);
    assertTrue(isExact(estimate(201, sums, META)));
  }

  @Test
  void metapageAloneGivesZeroPagesAndNaNPercentages() {
    IndexPageSums sums = new IndexPageSums().add(METAPAGE, false);
    IndexMetapage empty = IndexMetapage.btree(4, 0, 0, true);
    IndexPageEstimates e = estimate(1, sums, empty);
    assertEquals(0.0, e.total(IndexMeasure.LEAF_PAGES).value());
    assertTrue(Double.isNaN(e.avgLeafDensity().value()) && Double.isNaN(e.leafFragmentation().value()));
    assertEquals(8192, IndexFigures.of(empty, e.blocks(), IndexTotals.read(sums)).indexSize());
  }

  @Test
  void nothingReadKnowsNothing() {
    IndexPageEstimates e = estimate(101, new IndexPageSums(), META);
    assertTrue(Double.isNaN(e.total(IndexMeasure.LEAF_PAGES).value()));
    assertEquals(0.0, e.total(IndexMeasure.LEAF_PAGES).low());
    assertEquals(100.0, e.total(IndexMeasure.LEAF_PAGES).high());
    assertEquals(0.0, e.avgLeafDensity().low());
    assertEquals(100.0, e.avgLeafDensity().high());
  }

  @Test
  void intervalsCoverTheTruthAboutNinetyFivePercentOfTheTime() {
    List<IndexPageStats> pages = population(5000, 2);
    IndexPageSums all = sum(pages);
    IndexTotals truth = IndexTotals.read(all);
    double density = 100.0 - truth.leafFreeSpace() / truth.leafMaxAvail() * 100.0;
    double fragmentation = truth.fragments() / truth.leafPages() * 100.0;
    double reclaimable = estimate(pages.size() + 1, all, META).reclaimableBytes().value();
    Random random = new Random(20261130);
    int trials = 400;
    int[] covered = new int[5];
    for (int trial = 0; trial < trials; trial++) {
      IndexPageSums sample = new IndexPageSums();
      // Algorithm S (Knuth): n of M pages, in order
      int n = 300;
      int needed = n;
      for (int i = 0; i < pages.size() && needed > 0; i++) {
        if (random.nextInt(pages.size() - i) < needed) {
          sample.add(pages.get(i), false);
          needed--;
        }
      }
      IndexPageEstimates e = estimate(pages.size() + 1, sample, META);
      covered[0] += within(e.total(IndexMeasure.LEAF_PAGES), truth.leafPages());
      covered[1] += within(e.total(IndexMeasure.DELETED_PAGES), truth.deletedPages());
      covered[2] += within(e.avgLeafDensity(), density);
      covered[3] += within(e.leafFragmentation(), fragmentation);
      covered[4] += within(e.reclaimableBytes(), reclaimable);
    }
    for (int c : covered) {
      // 95 % of 400 = 380; a binomial SD of 4.4: accept 363..396 (about ±4 SD, a fixed seed)
      assertTrue(c >= 363 && c <= 396, "coverage " + java.util.Arrays.toString(covered) + " of " + trials);
    }
  }

  private static int within(Estimate e, double truth) {
    return e.low() <= truth && truth <= e.high() ? 1 : 0;
  }
}
