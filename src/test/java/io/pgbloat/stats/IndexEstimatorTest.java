package io.pgbloat.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.page.BtreeMeta;
import io.pgbloat.page.BtreeLeafEntries;
import io.pgbloat.page.BtreePageKind;
import io.pgbloat.page.BtreePageStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The sampled btree figures: a full read gives pgstatindex's exact figures with SE 0, and the
 * 95 % intervals of samples cover the truth of a known population about 95 % of the time.
 */
class IndexEstimatorTest {
  private static final BtreeMeta META = new BtreeMeta(4, 7, 2, 7, 2, true, null);
  private static final int MAX_AVAIL = 8152;

  /** A population like a bloated index: leaves of varied fullness, some out of order, deleted pages. */
  private static List<BtreePageStats> population(int pages, long seed) {
    Random random = new Random(seed);
    List<BtreePageStats> all = new ArrayList<>();
    for (int block = 1; block <= pages; block++) {
      double u = random.nextDouble();
      if (u < 0.03) {
        all.add(new BtreePageStats(block, BtreePageKind.INTERNAL, random.nextInt(3000), MAX_AVAIL, false, 1, 0, null, null));
      } else if (u < 0.10) {
        all.add(new BtreePageStats(block, BtreePageKind.DELETED, 0, MAX_AVAIL, false, 0, 0x105, null, null));
      } else {
        int free = random.nextDouble() < 0.5 ? random.nextInt(800) : random.nextInt(MAX_AVAIL);
        all.add(new BtreePageStats(block, BtreePageKind.LEAF, free, MAX_AVAIL, random.nextDouble() < 0.3, 0, 1,
            new BtreeLeafEntries.Bytes(MAX_AVAIL - free, MAX_AVAIL - free, 100, true), null));
      }
    }
    return all;
  }

  private static BtreeSums sum(List<BtreePageStats> pages) {
    BtreeSums sums = new BtreeSums();
    pages.forEach(sums::add);
    return sums;
  }

  @Test
  void fullReadIsExactAndEqualsPgstatindexArithmetic() {
    List<BtreePageStats> pages = population(2000, 1);
    BtreeSums sums = sum(pages);
    sums.add(BtreePageStats.meta()); // block 0: noted, adds nothing
    IndexEstimates e = new IndexEstimator(0.95).estimate(META, pages.size() + 1, sums, 90, true, null);
    assertTrue(e.isExact());
    assertEquals(IndexFigures.of(META, pages.size() + 1, sums.totals()), e.figures());
    assertEquals(0.0, e.avgLeafDensity().standardError());
    assertEquals(e.avgLeafDensity().value(), e.avgLeafDensity().low());
  }

  @Test
  void aBadMetapageDoesNotStandInForAnUnreadPage() {
    List<BtreePageStats> pages = population(200, 3);
    BtreeSums sums = sum(pages.subList(0, 199)); // the last page not read
    sums.add(BtreePageStats.bad(new io.pgbloat.page.PageProblem(0, "checksum mismatch")));
    assertEquals(1, sums.badPages());
    assertEquals(0, sums.badPagesAfterMeta());
    assertTrue(!new IndexEstimator(0.95).estimate(META, 201, sums, 90, true, null).isExact());
    sums.add(pages.get(199));
    assertTrue(new IndexEstimator(0.95).estimate(META, 201, sums, 90, true, null).isExact());
  }

  @Test
  void metapageAloneGivesZeroPagesAndNaNPercentages() {
    BtreeSums sums = new BtreeSums().add(BtreePageStats.meta());
    IndexEstimates e = new IndexEstimator(0.95).estimate(new BtreeMeta(4, 0, 0, 0, 0, true, null), 1, sums, 90, true, null);
    assertEquals(0.0, e.leafPages().value());
    assertTrue(Double.isNaN(e.avgLeafDensity().value()) && Double.isNaN(e.leafFragmentation().value()));
    assertEquals(8192, e.figures().indexSize());
  }

  @Test
  void nothingReadKnowsNothing() {
    IndexEstimates e = new IndexEstimator(0.95).estimate(META, 101, new BtreeSums(), 90, true, null);
    assertTrue(Double.isNaN(e.leafPages().value()));
    assertEquals(0.0, e.leafPages().low());
    assertEquals(100.0, e.leafPages().high());
    assertEquals(0.0, e.avgLeafDensity().low());
    assertEquals(100.0, e.avgLeafDensity().high());
  }

  @Test
  void intervalsCoverTheTruthAboutNinetyFivePercentOfTheTime() {
    List<BtreePageStats> pages = population(5000, 2);
    BtreeSums all = sum(pages);
    IndexTotals truth = all.totals();
    double density = 100.0 - truth.leafFreeSpace() / truth.leafMaxAvail() * 100.0;
    double fragmentation = truth.fragments() / truth.leafPages() * 100.0;
    IndexEstimator estimator = new IndexEstimator(0.95);
    double reclaimable = estimator.estimate(META, pages.size() + 1, all, 90, true, null).reclaimableBytes().value();
    Random random = new Random(20261130);
    int trials = 400;
    int[] covered = new int[5];
    for (int trial = 0; trial < trials; trial++) {
      BtreeSums sample = new BtreeSums();
      // Algorithm S (Knuth): n of M pages, in order
      int n = 300;
      int needed = n;
      for (int i = 0; i < pages.size() && needed > 0; i++) {
        if (random.nextInt(pages.size() - i) < needed) {
          sample.add(pages.get(i));
          needed--;
        }
      }
      IndexEstimates e = estimator.estimate(META, pages.size() + 1, sample, 90, true, null);
      covered[0] += within(e.leafPages(), truth.leafPages());
      covered[1] += within(e.deletedPages(), truth.deletedPages());
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
