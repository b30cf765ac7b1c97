package io.pgbloat.figures;

import io.pgbloat.catalog.RelOptions;
import io.pgbloat.page.PageHeader;
import io.pgbloat.rebuild.TableRewrite;
import io.pgbloat.rebuild.ToastRewrite;
import io.pgbloat.sample.RelationSample;
import io.pgbloat.sample.Stratum;
import io.pgbloat.stats.Estimate;
import io.pgbloat.stats.Measure;
import io.pgbloat.stats.PartialSums;
import io.pgbloat.stats.StratifiedEstimator;
import io.pgbloat.stats.StratifiedSums;
import java.util.List;

/**
 * The pgstattuple figures of one relation ({@code contrib/pgstattuple/pgstattuple.c},
 * build_pgstattuple_type), each an {@link Estimate}: exact (SE 0) where every block was read,
 * estimated from the sample elsewhere. Percentages are the totals over the known table_len
 * (0 for an empty table), so their bounds scale with the totals'.
 *
 * @param blocks N, the relation's length in blocks
 * @param scannedBlocks blocks read (good and bad)
 * @param badPages pages that failed the sanity or checksum rules; left out of the figures
 * @param wastedBytes dead plus free bytes, estimated page by page ({@link Measure#WASTED_BYTES}), so
 *     its interval is the sum's own, not that of two independent figures
 * @param fillfactor the fillfactor a rewrite would fill the relation's pages to (from reloptions)
 * @param reclaimableBytes table_len less the bytes a rewrite (VACUUM FULL) would leave, as
 *     {@link TableRewrite} models it
 * @param lowerBound a part of the relation read whole had bad pages, which no figure counts:
 *     the counts and bytes there are what the good pages hold, a lower bound (a sampled part
 *     stands in for its bad pages by its good ones instead)
 */
public record RelationFigures(
    long blocks,
    long scannedBlocks,
    long badPages,
    Estimate tupleCount,
    Estimate tupleLen,
    Estimate deadTupleCount,
    Estimate deadTupleLen,
    Estimate freeSpace,
    Estimate wastedBytes,
    int fillfactor,
    Estimate reclaimableBytes,
    boolean lowerBound) {

  /**
   * The figures from {@code sums}, read from {@code sample}, of a relation written at
   * {@code fillfactor}, a TOAST table if {@code toast}, whose file ends in
   * {@code unreadableBlocks} partial blocks (bad pages no sum holds: a lower bound).
   */
  public static RelationFigures of(RelationSample sample, StratifiedSums sums, StratifiedEstimator estimator,
      int fillfactor, boolean toast, long unreadableBlocks) {
    PartialSums all = sums.total();
    long[] population = sample.population();
    Estimate tupleCount = estimator.total(Measure.TUPLE_COUNT, population, sums);
    // In a part read whole, a bad page's tuples are in no sum, so the rewrite is taken to keep
    // it as it is; in a sampled part, the estimate already stands in for the bad pages' share
    // from the good ones. Decided from what was read, so a target-RSE run's two passes agree.
    long keptWhole = badPagesReadWhole(population, sums);
    Estimate reclaimable = TableRewrite.reclaimableBytes(sample.blocks(), keptWhole, tupleCount,
        estimator.total(Measure.LIVE_ITEM_BYTES, population, sums),
        estimator.total(Measure.LIVE_ITEM_SQUARES, population, sums),
        toast ? toastChunks(population, sums, estimator) : null, fillfactor);
    return new RelationFigures(sample.blocks(), all.pagesRead(), all.badPages() + unreadableBlocks,
        tupleCount,
        estimator.total(Measure.TUPLE_LEN, population, sums),
        estimator.total(Measure.DEAD_TUPLE_COUNT, population, sums),
        estimator.total(Measure.DEAD_TUPLE_LEN, population, sums),
        estimator.total(Measure.FREE_SPACE, population, sums),
        estimator.total(Measure.WASTED_BYTES, population, sums),
        fillfactor,
        reclaimable,
        unreadableBlocks > 0 || keptWhole > 0);
  }

  /** The bad pages of the strata read whole. */
  private static long badPagesReadWhole(long[] population, StratifiedSums sums) {
    long bad = 0;
    for (Stratum stratum : Stratum.values()) {
      PartialSums s = sums.of(stratum);
      if (s.pagesRead() >= population[stratum.ordinal()]) {
        bad += s.badPages();
      }
    }
    return bad;
  }

  private static ToastRewrite.ChunkTotals toastChunks(long[] population, StratifiedSums sums,
      StratifiedEstimator estimator) {
    return new ToastRewrite.ChunkTotals(estimator.total(Measure.TOAST_FULL_CHUNKS, population, sums).value(),
        estimator.total(Measure.TOAST_LAST_OF_ONE, population, sums).value(),
        estimator.total(Measure.TOAST_LAST_OF_TWO, population, sums).value(),
        estimator.total(Measure.TOAST_LAST_OF_THREE, population, sums).value());
  }

  /**
   * The figures of relations sampled independently, summed (a partitioned table's rollup of its
   * partitions): blocks, pages and bad pages add, each estimate as {@link Estimate#sum} adds
   * them; the fillfactor is the lowest of theirs.
   */
  public static RelationFigures sum(List<RelationFigures> parts) {
    return new RelationFigures(
        parts.stream().mapToLong(RelationFigures::blocks).sum(),
        parts.stream().mapToLong(RelationFigures::scannedBlocks).sum(),
        parts.stream().mapToLong(RelationFigures::badPages).sum(),
        Estimate.sum(parts.stream().map(RelationFigures::tupleCount).toList()),
        Estimate.sum(parts.stream().map(RelationFigures::tupleLen).toList()),
        Estimate.sum(parts.stream().map(RelationFigures::deadTupleCount).toList()),
        Estimate.sum(parts.stream().map(RelationFigures::deadTupleLen).toList()),
        Estimate.sum(parts.stream().map(RelationFigures::freeSpace).toList()),
        Estimate.sum(parts.stream().map(RelationFigures::wastedBytes).toList()),
        parts.stream().mapToInt(RelationFigures::fillfactor).min().orElse(RelOptions.HEAP_DEFAULT_FILLFACTOR),
        Estimate.sum(parts.stream().map(RelationFigures::reclaimableBytes).toList()),
        parts.stream().anyMatch(RelationFigures::lowerBound));
  }

  /** table_len: blocks × BLCKSZ. */
  public long tableLen() {
    return blocks * PageHeader.BLCKSZ;
  }

  public Estimate tuplePercent() {
    return percent(tupleLen);
  }

  public Estimate deadTuplePercent() {
    return percent(deadTupleLen);
  }

  public Estimate freePercent() {
    return percent(freeSpace);
  }

  /** reclaimable_bytes over table_len, in percent. */
  public Estimate reclaimablePercent() {
    return percent(reclaimableBytes);
  }

  /** Whether every figure is exact (every block read). */
  public boolean isExact() {
    return tupleCount.isExact() && tupleLen.isExact() && deadTupleCount.isExact() && deadTupleLen.isExact()
        && freeSpace.isExact() && reclaimableBytes.isExact();
  }

  private Estimate percent(Estimate bytes) {
    return bytes.scaled(100.0, tableLen());
  }
}
