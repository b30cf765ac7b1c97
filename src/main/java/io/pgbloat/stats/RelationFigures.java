package io.pgbloat.stats;

import io.pgbloat.page.PageHeader;

/**
 * The pgstattuple figures of one relation from a full read of its pages
 * ({@code contrib/pgstattuple/pgstattuple.c}, build_pgstattuple_type): sums, and percentages
 * of table_len (0 for an empty table). Bad pages contribute nothing but their count.
 *
 * @param blocks N, the relation's length in blocks
 * @param scannedBlocks blocks read (good and bad)
 * @param badPages pages that failed the sanity or checksum rules
 */
public record RelationFigures(
    long blocks,
    long scannedBlocks,
    long tupleCount,
    long tupleLen,
    long deadTupleCount,
    long deadTupleLen,
    long freeSpace,
    long badPages) {

  /** The figures of a relation whose every block was read into {@code sums}. */
  public static RelationFigures exact(long blocks, PartialSums sums) {
    return new RelationFigures(blocks, sums.pagesRead(),
        sums.sum(Measure.TUPLE_COUNT), sums.sum(Measure.TUPLE_LEN),
        sums.sum(Measure.DEAD_TUPLE_COUNT), sums.sum(Measure.DEAD_TUPLE_LEN),
        sums.sum(Measure.FREE_SPACE), sums.badPages());
  }

  /** table_len: blocks × BLCKSZ. */
  public long tableLen() {
    return blocks * PageHeader.BLCKSZ;
  }

  public double tuplePercent() {
    return percent(tupleLen);
  }

  public double deadTuplePercent() {
    return percent(deadTupleLen);
  }

  public double freePercent() {
    return percent(freeSpace);
  }

  private double percent(long bytes) {
    long tableLen = tableLen();
    return tableLen == 0 ? 0.0 : 100.0 * bytes / tableLen;
  }
}
