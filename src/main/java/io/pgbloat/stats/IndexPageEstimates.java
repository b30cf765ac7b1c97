package io.pgbloat.stats;

import io.pgbloat.page.HashPage;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexMetapage;
import io.pgbloat.page.PageHeader;
import java.io.Serializable;
import java.util.EnumMap;
import java.util.Map;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The figures of a hash, GiST, GIN, SP-GiST or BRIN index from its pages read: block 0 exactly,
 * the pages the planner reads whole exactly, and the totals over the other pages of
 * blocks 1 to N - 1 (M of them) exact when all were read, else estimated
 * from their simple random sample as M ȳ with Var = M² (1 − n/M) s²/n (Cochran §2.4), Student's
 * t at n − 1 degrees of freedom, floored at 0. With n &lt; 2 nothing is known of the spread (the
 * interval is [0, ∞)). An index's pages are of a few kinds with very different figures (a
 * GIN pending-list page holds hundreds of entries, a posting-tree page a few segments), so s²
 * is guarded as {@link StratifiedEstimator} guards heap samples: taken as if the sample also
 * held two pseudo-pages at its own smallest and largest value, and, when its pages all agree,
 * the variance of one unseen page in n + 2 differing by one unit (one page or item; 1 % of a
 * page for byte counts).
 *
 * @param blocks N
 * @param sampledPages good pages read after block 0 (those read whole included)
 * @param badPages pages that failed the checks
 * @param firstBlockRead whether block 0 was read and good
 * @param first each measure on block 0
 * @param rest each measure's total over blocks 1 to N - 1
 * @param metapage the metapage's figures (hash, GIN), or null
 * @param reclaimableBytes what a REINDEX would give back ({@link HashRebuild}, {@link GinRebuild},
 *     {@link BrinRebuild}), or null for a method whose rebuild is not modelled (GiST, SP-GiST)
 */
public record IndexPageEstimates(long blocks, long sampledPages, long badPages, boolean firstBlockRead,
    Map<IndexMeasure, Long> first, Map<IndexMeasure, Estimate> rest, IndexMetapage metapage,
    Estimate reclaimableBytes) implements Serializable {

  private static final double BYTE_UNIT = PageHeader.BLCKSZ / 100.0;

  /** The figures of an index of access method {@code am} and {@code blocks} blocks from {@code sums}. */
  public static IndexPageEstimates of(IndexAccessMethod am, long blocks, IndexPageSums sums, IndexMetapage metapage,
      int fillfactor, double confidence) {
    // the pages read whole are exact; the rest of blocks 1 to N - 1 is sampled
    long population = Math.max(0, blocks - 1 - sums.wholePages());
    long n = sums.pages();
    boolean whole = n + sums.badPagesAfterFirst() >= population;
    double t = n >= 2 ? new TDistribution(null, n - 1).inverseCumulativeProbability(0.5 + confidence / 2) : 0;
    Map<IndexMeasure, Long> first = new EnumMap<>(IndexMeasure.class);
    Map<IndexMeasure, Estimate> rest = new EnumMap<>(IndexMeasure.class);
    for (IndexMeasure m : IndexMeasure.values()) {
      first.put(m, sums.first(m));
      Estimate sampled = whole ? Estimate.exact(sums.sum(m)) : total(m, sums, population, t);
      rest.put(m, Estimate.sum(java.util.List.of(Estimate.exact(sums.whole(m)), sampled)));
    }
    Estimate reclaimable = switch (am) {
      case HASH -> HashRebuild.reclaimableBytes(blocks, rest.get(IndexMeasure.LIVE_ITEMS), fillfactor);
      case BRIN -> BrinRebuild.reclaimableBytes(blocks, total(first, rest, IndexMeasure.LIVE_ITEMS),
          total(first, rest, IndexMeasure.LIVE_ITEM_BYTES));
      case GIN -> GinRebuild.reclaimableBytes(blocks, m -> total(first, rest, m));
      default -> null;
    };
    return new IndexPageEstimates(blocks, n + sums.wholePages(), sums.badPages(), sums.firstBlockRead(), first,
        rest, metapage, reclaimable);
  }

  private static Estimate total(IndexMeasure m, IndexPageSums s, long population, double t) {
    long n = s.pages();
    if (n < 2) {
      return n == 0 ? Estimate.unknown() : new Estimate((double) population * s.sum(m) / n, Double.NaN, 0,
          Double.POSITIVE_INFINITY);
    }
    double mean = (double) s.sum(m) / n;
    double low = s.min(m) - mean;
    double high = s.max(m) - mean;
    double variance = (s.sumOfSquares(m) - (double) s.sum(m) * s.sum(m) / n + low * low + high * high) / (n + 1);
    if (variance <= 0) {
      double unit = isBytes(m) ? BYTE_UNIT : 1;
      variance = unit * unit / (n + 2);
    }
    double se = population * Math.sqrt((1.0 - (double) n / population) * variance / n);
    double value = population * mean;
    return new Estimate(value, se, Math.max(0, value - t * se), value + t * se);
  }

  private static boolean isBytes(IndexMeasure m) {
    return switch (m) {
      case LIVE_ITEM_BYTES, DEAD_ITEM_BYTES, FREE_SPACE, GAP, HASH_FREE, ENTRY_LEAF_SPACE, ENTRY_INNER_SPACE,
          INLINE_POSTING_BYTES, POSTING_LEAF_SPACE, SMALL_TREE_END_BYTES -> true;
      default -> false;
    };
  }

  /** {@code m} over blocks 1 to N - 1, as pgstattuple reads an index (it starts at block 1). */
  public Estimate afterFirst(IndexMeasure m) {
    return rest.get(m);
  }

  /** {@code m} over every block, block 0 included (pages by kind, free bytes). */
  public Estimate total(IndexMeasure m) {
    return total(first, rest, m);
  }

  private static Estimate total(Map<IndexMeasure, Long> first, Map<IndexMeasure, Estimate> rest, IndexMeasure m) {
    return Estimate.sum(java.util.List.of(Estimate.exact(first.get(m)), rest.get(m)));
  }

  /**
   * pgstathashindex's free_percent: the bucket and overflow pages' free bytes, and hashm_bsize
   * for each unused page, over hashm_bsize for every page but the metapage and the bitmap
   * pages. The bitmap pages (one or a few) are taken as their estimate, their error not
   * carried into the quotient's.
   */
  public Estimate hashFreePercent() {
    Estimate free = rest.get(IndexMeasure.HASH_FREE);
    double pages = blocks - 1 - rest.get(IndexMeasure.BITMAP_PAGES).value();
    return pages <= 0 ? Estimate.exact(0) : free.scaled(100.0, pages * HashPage.BSIZE);
  }
}
