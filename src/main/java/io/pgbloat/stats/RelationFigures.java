package io.pgbloat.stats;

import io.pgbloat.page.PageHeader;
import io.pgbloat.sample.RelationSample;

/**
 * The pgstattuple figures of one relation ({@code contrib/pgstattuple/pgstattuple.c},
 * build_pgstattuple_type), each an {@link Estimate}: exact (SE 0) where every block was read,
 * estimated from the sample elsewhere. Percentages are the totals over the known table_len
 * (0 for an empty table), so their bounds scale with the totals'.
 *
 * @param blocks N, the relation's length in blocks
 * @param scannedBlocks blocks read (good and bad)
 * @param badPages pages that failed the sanity or checksum rules; left out of the figures
 */
public record RelationFigures(
    long blocks,
    long scannedBlocks,
    long badPages,
    Estimate tupleCount,
    Estimate tupleLen,
    Estimate deadTupleCount,
    Estimate deadTupleLen,
    Estimate freeSpace) {

  /** The figures from {@code sums}, read from {@code sample}. */
  public static RelationFigures of(RelationSample sample, StratifiedSums sums, StratifiedEstimator estimator) {
    PartialSums all = sums.total();
    long[] population = sample.population();
    return new RelationFigures(sample.blocks(), all.pagesRead(), all.badPages(),
        estimator.total(Measure.TUPLE_COUNT, population, sums),
        estimator.total(Measure.TUPLE_LEN, population, sums),
        estimator.total(Measure.DEAD_TUPLE_COUNT, population, sums),
        estimator.total(Measure.DEAD_TUPLE_LEN, population, sums),
        estimator.total(Measure.FREE_SPACE, population, sums));
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

  /** Whether every figure is exact (every block read). */
  public boolean isExact() {
    return tupleCount.isExact() && tupleLen.isExact() && deadTupleCount.isExact() && deadTupleLen.isExact()
        && freeSpace.isExact();
  }

  private Estimate percent(Estimate bytes) {
    return bytes.scaled(100.0, tableLen());
  }
}
