package io.pgbloat.stats;

import io.pgbloat.page.BtreeMeta;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * Estimates pgstatindex's figures from a simple random sample, without replacement, of the
 * pages of a btree index other than its metapage (blocks 1 to N - 1: M = N - 1 pages), summed
 * in {@link BtreeSums}. Cochran, Sampling Techniques, 3rd ed.:
 *
 * <pre>
 *   page counts (§2.4):   Ŷ = M ȳ            Var(Ŷ) = M² (1 − n/M) s²/n
 *   ratios (§6.3, 6.9):   R̂ = Σy / Σx        Var(R̂) ≈ (1 − n/M) / (n x̄²) · s_d²,
 *                         s_d² = (Σy² − 2R̂ Σxy + R̂² Σx²) / (n − 1)
 * </pre>
 *
 * avg_leaf_density = 100 − 100 R̂ with y = leaf free space, x = leaf max_avail;
 * leaf_fragmentation = 100 R̂ with y = fragment, x = leaf. reclaimable_bytes is
 * {@link BtreeRebuild}'s model of the bytes a build writes for the leaves' live entries, M d̄
 * with d a leaf's {@link io.pgbloat.page.BtreeLeafEntries} bytes. The ratio's N and M cancel, as they
 * do in pgstatindex's own quotient of totals. Intervals use Student's t at n − 1 degrees of
 * freedom and are clipped to what the figure can be ([0, M] pages, [0, 100] percent).
 *
 * <p>Edge cases, explicit:
 * <ul>
 *   <li>every page read (n + bad pages after block 0 ≥ M): exact, SE 0, computed exactly as pgstatindex computes it;</li>
 *   <li>M = 0 (the metapage alone): counts exactly 0, percentages NaN, as pgstatindex says;</li>
 *   <li>n &lt; 2, or a ratio whose sample has no leaf: nothing is known of the spread, so the
 *       value is NaN or the point estimate and the interval is the whole range;</li>
 *   <li>a sample whose pages all agree (s² = 0) from a part not read whole still has the
 *       variance of one unseen page in n + 2 differing by one unit (one page; for density,
 *       one leaf's whole max_avail), as {@link StratifiedEstimator} guards heap samples.</li>
 * </ul>
 */
public final class IndexEstimator {
  private static final double PERCENT = 100.0;

  private final double confidence;

  /** @param confidence the interval's confidence, e.g. 0.95 */
  public IndexEstimator(double confidence) {
    this.confidence = confidence;
  }

  /**
   * @param meta the metapage (always read whole)
   * @param blocks N, the index's length in blocks
   * @param sums the sampled pages of blocks 1 to N - 1
   * @param fillfactor the index's fillfactor, which a REINDEX fills its leaves to
   * @param deduplicateItems whether a build may deduplicate (not unique, deduplicate_items on);
   *     it does when the metapage also says allequalimage
   * @param heapTuples the live tuples of the index's table, when this run counted them, else
   *     null: a build indexes those alone, so where the leaves hold more heap TIDs, the surplus
   *     (entries of rows deleted since the last VACUUM) is taken out of the build's bytes
   *     ({@link BtreeRebuild#keptBytes})
   */
  public IndexEstimates estimate(BtreeMeta meta, long blocks, BtreeSums sums, int fillfactor,
      boolean deduplicateItems, Estimate heapTuples) {
    BtreeMeasure build = deduplicateItems && meta.allEqualImage() ? BtreeMeasure.LEAF_DEDUPLICATED_BUILD_BYTES
        : BtreeMeasure.LEAF_BUILD_BYTES;
    long population = Math.max(0, blocks - 1);
    long n = sums.pages();
    long bad = sums.badPages();
    boolean whole = n + sums.badPagesAfterMeta() >= population;
    if (whole) {
      IndexTotals totals = sums.totals();
      IndexFigures exact = IndexFigures.of(meta, blocks, totals);
      return new IndexEstimates(meta, blocks, n, bad, Estimate.exact(exact.internalPages()),
          Estimate.exact(exact.leafPages()), Estimate.exact(exact.emptyPages()), Estimate.exact(exact.deletedPages()),
          Estimate.exact(exact.avgLeafDensity()), Estimate.exact(exact.leafFragmentation()),
          BtreeRebuild.reclaimableBytes(blocks,
              BtreeRebuild.keptBytes(Estimate.exact(sums.sum(build)), heapTuples, sums.sum(BtreeMeasure.LEAF_TIDS)),
              totals.leafPages(), totals.internalPages(), fillfactor));
    }
    double t = n >= 2 ? new TDistribution(null, n - 1).inverseCumulativeProbability(0.5 + confidence / 2) : 0;
    Estimate internal = pages(BtreeMeasure.INTERNAL_PAGES, sums, population, t);
    Estimate leaves = pages(BtreeMeasure.LEAF_PAGES, sums, population, t);
    return new IndexEstimates(meta, blocks, n, bad, internal, leaves,
        pages(BtreeMeasure.EMPTY_PAGES, sums, population, t),
        pages(BtreeMeasure.DELETED_PAGES, sums, population, t),
        density(sums, population, t),
        fragmentation(sums, population, t),
        BtreeRebuild.reclaimableBytes(blocks,
            BtreeRebuild.keptBytes(
                total(sums.sum(build), sums.sumOfSquares(build), n, population, t, BtreeRebuild.MAX_AVAIL, false),
                heapTuples, n == 0 ? 0 : (double) population * sums.sum(BtreeMeasure.LEAF_TIDS) / n),
            leaves.value(), internal.value(), fillfactor));
  }

  /** A page count's total, M ȳ, with its SE. */
  private static Estimate pages(BtreeMeasure m, BtreeSums s, long population, double t) {
    return total(s.sum(m), s.sumOfSquares(m), s.pages(), population, t, 1, true);
  }

  /**
   * M ȳ with its SE, from n pages with Σy and Σy²; the interval is clipped at 0 and, when the
   * values are {@code bounded} by {@code unit}, at M·unit; a sample whose pages all agree is
   * guarded with the variance of one unseen page differing by a whole unit.
   */
  private static Estimate total(long sum, long sumOfSquares, long n, long population, double t, double unit,
      boolean bounded) {
    double most = bounded ? population * unit : Double.POSITIVE_INFINITY;
    if (n < 2) {
      double value = n == 0 ? Double.NaN : (double) population * sum / n;
      return new Estimate(value, Double.NaN, 0, most);
    }
    double variance = variance(n, sum, sumOfSquares);
    if (variance <= 0) {
      variance = unit * unit / (n + 2);
    }
    double fpc = 1.0 - (double) n / population;
    double se = population * Math.sqrt(fpc * variance / n);
    double value = population * (double) sum / n;
    return new Estimate(value, se, Math.max(0, value - t * se), Math.min(most, value + t * se));
  }

  /** avg_leaf_density = 100 − 100 R̂, R̂ = Σ free / Σ max_avail over the sampled leaves. */
  private static Estimate density(BtreeSums s, long population, double t) {
    long x = s.sum(BtreeMeasure.LEAF_MAX_AVAIL);
    long leaves = s.sum(BtreeMeasure.LEAF_PAGES);
    Estimate ratio = ratio(s.sum(BtreeMeasure.LEAF_FREE_SPACE), s.sumOfSquares(BtreeMeasure.LEAF_FREE_SPACE), x,
        s.sumOfSquares(BtreeMeasure.LEAF_MAX_AVAIL), s.sumOfFreeTimesMaxAvail(), s.pages(), population, t,
        leaves == 0 ? 0 : (double) x / leaves);
    double value = x > 0 ? IndexFigures.avgLeafDensity(s.sum(BtreeMeasure.LEAF_FREE_SPACE), x) : Double.NaN;
    return new Estimate(value, PERCENT * ratio.standardError(), Math.max(0, PERCENT - PERCENT * ratio.high()),
        Math.min(PERCENT, PERCENT - PERCENT * ratio.low()));
  }

  /** leaf_fragmentation = 100 R̂, R̂ = Σ fragments / Σ leaves over the sample. */
  private static Estimate fragmentation(BtreeSums s, long population, double t) {
    long y = s.sum(BtreeMeasure.FRAGMENTS);
    long x = s.sum(BtreeMeasure.LEAF_PAGES);
    // both are 0/1 indicators, so Σy² = Σy, Σx² = Σx, and a fragment is a leaf: Σxy = Σy
    Estimate ratio = ratio(y, y, x, x, s.sumOfFragmentsTimesLeaves(), s.pages(), population, t, 1.0);
    double value = x > 0 ? IndexFigures.leafFragmentation(y, x) : Double.NaN;
    return new Estimate(value, PERCENT * ratio.standardError(), Math.max(0, PERCENT * ratio.low()),
        Math.min(PERCENT, PERCENT * ratio.high()));
  }

  /**
   * R̂ = Σy/Σx with Cochran's linearised variance; {@code unit} is the guard's one-page step in
   * y's units. Without a sampled x (Σx = 0) or with n &lt; 2, the interval is [0, 1].
   */
  static Estimate ratio(long sumY, long sumY2, long sumX, long sumX2, long sumXY, long n, long population, double t,
      double unit) {
    if (sumX == 0 || n < 2) {
      return new Estimate(sumX == 0 ? Double.NaN : (double) sumY / sumX, Double.NaN, 0, 1);
    }
    double r = (double) sumY / sumX;
    double xBar = (double) sumX / n;
    double residuals = (sumY2 - 2 * r * sumXY + r * r * sumX2) / (n - 1);
    if (residuals <= 0) {
      residuals = unit * unit / (n + 2);
    }
    double fpc = 1.0 - (double) n / population;
    double se = Math.sqrt(fpc * residuals / n) / xBar;
    return new Estimate(r, se, Math.max(0, r - t * se), Math.min(1, r + t * se));
  }

  /** s² = (Σy² − (Σy)²/n) / (n − 1). */
  private static double variance(long n, long sum, long sumOfSquares) {
    return (sumOfSquares - (double) sum * sum / n) / (n - 1);
  }
}
