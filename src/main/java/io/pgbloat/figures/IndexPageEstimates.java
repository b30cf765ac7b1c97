package io.pgbloat.figures;

import io.pgbloat.page.BtreePage;
import io.pgbloat.page.HashPage;
import io.pgbloat.page.HashPageCounts;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexMetapage;
import io.pgbloat.rebuild.BrinRebuild;
import io.pgbloat.rebuild.BtreeRebuild;
import io.pgbloat.rebuild.GinRebuild;
import io.pgbloat.rebuild.HashRebuild;
import io.pgbloat.rebuild.IndexBuild;
import io.pgbloat.sample.IndexWholeBlocks;
import io.pgbloat.stats.Estimate;
import io.pgbloat.stats.IndexMeasure;
import io.pgbloat.stats.IndexPageSums;
import io.pgbloat.stats.StratifiedEstimator;
import io.pgbloat.stats.StratumSample;
import java.io.Serializable;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of an index, of any access method, from its pages read ({@link IndexPageSums}):
 * block 0 exactly, the pages the planner reads whole exactly, and the totals over the other
 * pages of blocks 1 to N - 1 exact when all were read, else estimated from their simple random
 * sample, each by the one {@link StratifiedEstimator}: the parts read whole are strata read
 * whole, the sample a stratum of its own. An index's pages are of a few kinds with very
 * different figures (a GIN pending-list page holds hundreds of entries, a posting-tree page a
 * few segments; a btree's few inner pages among its leaves), which the estimator's guards are
 * for. pgstatindex's two percentages are ratio estimates over the leaves ({@link #avgLeafDensity},
 * {@link #leafFragmentation}); the method's rebuild model gives what a REINDEX would give back.
 *
 * @param blocks N
 * @param sampledPages good pages read after block 0 (those read whole included)
 * @param badPages pages that failed the checks
 * @param firstBlockRead whether block 0 was read and good
 * @param afterFirstBlock each measure's total over blocks 1 to N - 1, for the measures summed
 *     (the method's, {@link IndexMeasure#of})
 * @param everyBlock each measure's total over every block, block 0 included
 * @param avgLeafDensity pgstatindex's avg_leaf_density, 100 − 100·Σ free / Σ max_avail over the
 *     leaves, its value as pgstatindex prints it (NaN without leaves)
 * @param leafFragmentation pgstatindex's leaf_fragmentation, 100·Σ fragments / Σ leaves, likewise
 * @param metapage the metapage's figures (btree, hash, GIN), or null
 * @param reclaimableBytes what a REINDEX would give back ({@link BtreeRebuild}, {@link HashRebuild},
 *     {@link GinRebuild}, {@link BrinRebuild}), or null for a method whose rebuild is not modelled
 *     (GiST, SP-GiST)
 * @param hashPageCounts a hash index's page counts as its metapage and bitmap pages tell them,
 *     exact, or null where the sample estimates them
 */
public record IndexPageEstimates(long blocks, long sampledPages, long badPages, boolean firstBlockRead,
    Map<IndexMeasure, Estimate> afterFirstBlock, Map<IndexMeasure, Estimate> everyBlock, Estimate avgLeafDensity,
    Estimate leafFragmentation, IndexMetapage metapage, Estimate reclaimableBytes, HashPageCounts hashPageCounts)
    implements Serializable {

  private static final double PERCENT = 100.0;

  /**
   * The figures of an index of access method {@code am} and {@code blocks} blocks from
   * {@code sums}, {@code readWhole} what the plan read of it whole and knew before the scan.
   */
  public static IndexPageEstimates of(IndexAccessMethod am, long blocks, IndexPageSums sums,
      IndexWholeBlocks readWhole, IndexMetapage metapage, IndexBuild build, StratifiedEstimator estimator) {
    Map<IndexMeasure, Estimate> afterFirst = new EnumMap<>(IndexMeasure.class);
    Map<IndexMeasure, Estimate> every = new EnumMap<>(IndexMeasure.class);
    Map<IndexMeasure, Long> counted = hashPagesCounted(readWhole.hashPageCounts());
    for (IndexMeasure m : sums.measures()) {
      StratumSample whole = StratumSample.exact(sums.whole(m));
      StratumSample sampled = sums.sampled(m, blocks, readWhole.kindsAllRead());
      afterFirst.put(m, counted.containsKey(m) ? Estimate.exact(counted.get(m))
          : estimator.total(List.of(whole, sampled), m.unit(), m.mostPerPage()));
      every.put(m, counted.containsKey(m) ? Estimate.exact(counted.get(m) + sums.first(m))
          : estimator.total(List.of(StratumSample.exact(sums.first(m)), whole, sampled), m.unit(), m.mostPerPage()));
    }
    Estimate freeRatio = estimator.ratio(sums.sampled(IndexMeasure.LEAF_FREE_SPACE, blocks),
        sums.sampled(IndexMeasure.LEAF_PAGES, blocks), sums.whole(IndexMeasure.LEAF_FREE_SPACE),
        sums.whole(IndexMeasure.LEAF_PAGES), BtreePage.MAX_AVAIL, BtreePage.MAX_AVAIL, 1);
    Estimate fragmentRatio = estimator.ratio(sums.sampled(IndexMeasure.FRAGMENTS, blocks),
        sums.sampled(IndexMeasure.LEAF_PAGES, blocks), sums.whole(IndexMeasure.FRAGMENTS),
        sums.whole(IndexMeasure.LEAF_PAGES), 1, 1, 1);
    Estimate density = exactOr(freeRatio, IndexFigures.avgLeafDensity(freeRatio.value()),
        new Estimate(IndexFigures.avgLeafDensity(freeRatio.value()), PERCENT * freeRatio.standardError(),
            Math.max(0, PERCENT - PERCENT * freeRatio.high()), Math.min(PERCENT, PERCENT - PERCENT * freeRatio.low())));
    Estimate fragmentation = exactOr(fragmentRatio, IndexFigures.leafFragmentation(fragmentRatio.value()),
        new Estimate(IndexFigures.leafFragmentation(fragmentRatio.value()), PERCENT * fragmentRatio.standardError(),
            Math.max(0, PERCENT * fragmentRatio.low()), Math.min(PERCENT, PERCENT * fragmentRatio.high())));
    return new IndexPageEstimates(blocks, sums.pagesAfterFirst(), sums.badPages(), sums.firstBlockRead(), afterFirst,
        every, density, fragmentation, metapage, reclaimable(am, blocks, afterFirst, every, metapage, build),
        readWhole.hashPageCounts());
  }

  /** The figures at {@code confidence}, of an index of {@code fillfactor} whose table was not counted. */
  public static IndexPageEstimates of(IndexAccessMethod am, long blocks, IndexPageSums sums, IndexMetapage metapage,
      int fillfactor, double confidence) {
    return of(am, blocks, sums, IndexWholeBlocks.NONE, metapage, new IndexBuild(fillfactor, false),
        new StratifiedEstimator(confidence));
  }

  /** The page counts of a hash index known before the scan, by measure (none when {@code counts} is null). */
  private static Map<IndexMeasure, Long> hashPagesCounted(HashPageCounts counts) {
    return counts == null ? Map.of() : Map.of(IndexMeasure.BUCKET_PAGES, counts.bucketPages(),
        IndexMeasure.OVERFLOW_PAGES, counts.overflowPages(), IndexMeasure.BITMAP_PAGES, counts.bitmapPages());
  }

  /** A percentage of a ratio estimate: {@code value} alone when the ratio is exact, else {@code sampled}. */
  private static Estimate exactOr(Estimate ratio, double value, Estimate sampled) {
    return ratio.isExact() ? Estimate.exact(value) : sampled;
  }

  /** What a REINDEX would give back, by the method's rebuild model; null where none is modelled. */
  private static Estimate reclaimable(IndexAccessMethod am, long blocks, Map<IndexMeasure, Estimate> afterFirst,
      Map<IndexMeasure, Estimate> every, IndexMetapage metapage, IndexBuild build) {
    return switch (am) {
      case BTREE -> {
        boolean deduplicates = build.deduplicateItems() && metapage != null && metapage.allEqualImage();
        double tids = afterFirst.get(IndexMeasure.HEAP_ITEMS).value();
        Estimate bytes = afterFirst.get(deduplicates ? IndexMeasure.LEAF_DEDUPLICATED_BUILD_BYTES
            : IndexMeasure.LEAF_BUILD_BYTES);
        Estimate kept = deduplicates
            ? BtreeRebuild.keptDeduplicatedBytes(bytes, leafRuns(afterFirst), build.keptShare(),
                build.deletedShareOfDead())
            : BtreeRebuild.keptBytes(bytes, build.heapTuples(), tids);
        Estimate room = BtreeRebuild.keptRoom(afterFirst.get(deduplicates ? IndexMeasure.LEAF_DEDUPLICATED_BUILD_ROOM
            : IndexMeasure.LEAF_BUILD_ROOM), kept, bytes);
        double leaves = afterFirst.get(IndexMeasure.LEAF_PAGES).value();
        double pivotRoom = leaves > 1 ? afterFirst.get(IndexMeasure.LEAF_HIGH_KEY_BYTES).value() / (leaves - 1) : 0;
        yield BtreeRebuild.reclaimableBytes(blocks, room, leaves, afterFirst.get(IndexMeasure.INTERNAL_PAGES).value(),
            pivotRoom);
      }
      case HASH -> HashRebuild.reclaimableBytes(blocks,
          HashRebuild.insertedTuples(afterFirst.get(IndexMeasure.LIVE_ITEMS), build.keptShare()),
          build.expectedTuples(), build.fillfactor());
      case BRIN -> BrinRebuild.reclaimableBytes(blocks, every.get(IndexMeasure.LIVE_ITEMS),
          every.get(IndexMeasure.LIVE_ITEM_BYTES));
      case GIN -> GinRebuild.reclaimableBytes(blocks, every::get, build.keptShare(), build.pendingKeys(),
          build.table() == null ? 0 : build.table().blocks());
      case GIST, SPGIST -> null;
    };
  }

  /** The runs of equal keys on a btree's leaves, from their totals' values. */
  private static BtreeRebuild.LeafRuns leafRuns(Map<IndexMeasure, Estimate> afterFirst) {
    java.util.function.ToDoubleFunction<IndexMeasure> v = m -> afterFirst.get(m).value();
    return new BtreeRebuild.LeafRuns(v.applyAsDouble(IndexMeasure.SINGLE_RUNS),
        v.applyAsDouble(IndexMeasure.SINGLE_RUN_BYTES), v.applyAsDouble(IndexMeasure.FEW_RUNS),
        v.applyAsDouble(IndexMeasure.FEW_RUN_BYTES), v.applyAsDouble(IndexMeasure.FEW_RUN_TIDS),
        v.applyAsDouble(IndexMeasure.MANY_RUNS), v.applyAsDouble(IndexMeasure.MANY_RUN_BYTES),
        v.applyAsDouble(IndexMeasure.MANY_RUN_TIDS), v.applyAsDouble(IndexMeasure.LEAF_HIGH_KEY_BYTES));
  }

  /**
   * {@code m} over blocks 1 to N - 1, as pgstattuple and pgstatindex read an index (from block
   * 1); null for a measure not of the index's method.
   */
  public Estimate afterFirst(IndexMeasure m) {
    return afterFirstBlock.get(m);
  }

  /** {@code m} over every block, block 0 included (pages by kind, free bytes); null as {@link #afterFirst}. */
  public Estimate total(IndexMeasure m) {
    return everyBlock.get(m);
  }

  /**
   * pgstathashindex's free_percent: the bucket and overflow pages' free bytes, and hashm_bsize
   * for each unused page, over hashm_bsize for every page but the metapage and the bitmap
   * pages.
   */
  public Estimate hashFreePercent() {
    // the bitmap pages: counted, or an estimate whose error is not carried in
    Estimate free = afterFirst(IndexMeasure.HASH_FREE);
    double pages = blocks - 1 - afterFirst(IndexMeasure.BITMAP_PAGES).value();
    return pages <= 0 ? Estimate.exact(0) : free.scaled(100.0, pages * HashPage.BSIZE);
  }

  /** pgstathashindex's unused_pages: unused and new pages, counted where the bitmap pages tell them. */
  public Estimate hashUnusedPages() {
    return hashPageCounts != null ? Estimate.exact(hashPageCounts.unusedPages())
        : Estimate.sum(List.of(afterFirst(IndexMeasure.UNUSED_PAGES), afterFirst(IndexMeasure.NEW_PAGES)));
  }
}
