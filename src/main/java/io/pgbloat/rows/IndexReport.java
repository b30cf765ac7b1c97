package io.pgbloat.rows;

import io.pgbloat.advice.ActionAdvisor;
import io.pgbloat.advice.ActionThresholds;
import io.pgbloat.advice.Advice;
import io.pgbloat.catalog.RelKind;
import io.pgbloat.catalog.Relation;
import io.pgbloat.figures.IndexPageEstimates;
import io.pgbloat.stats.Estimate;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * One row of the index report: an index and its figures, or a partitioned index's rollup of
 * its leaves' rows.
 *
 * @param blocks its length in blocks (a rollup: its leaves')
 * @param pages its figures, or null for a method whose pages are not read and for a rollup
 * @param sampleSeed the seed its sample was drawn with, or null when every block was read
 * @param partitions for a partitioned index (relkind 'I'), the rows of the leaf indexes it
 *     sums (each sampled independently); empty for an index of its own
 * @param thresholds when what a REINDEX gives back is worth doing ({@link #advice})
 */
public record IndexReport(Relation relation, long blocks, IndexPageEstimates pages, Long sampleSeed,
    List<IndexReport> partitions, ActionThresholds thresholds) implements Serializable {

  public IndexReport {
    partitions = List.copyOf(partitions);
  }

  /** An index's own row, advised against {@code thresholds}. */
  public IndexReport(Relation relation, long blocks, IndexPageEstimates pages, Long sampleSeed,
      ActionThresholds thresholds) {
    this(relation, blocks, pages, sampleSeed, List.of(), thresholds);
  }

  /** An index's own row, advised against the default thresholds. */
  public IndexReport(Relation relation, long blocks, IndexPageEstimates pages, Long sampleSeed) {
    this(relation, blocks, pages, sampleSeed, ActionThresholds.DEFAULT);
  }

  /** What to do about it: a REINDEX, a larger sample, or nothing ({@link ActionAdvisor#adviseIndex}). */
  public Advice advice() {
    return isRollup() ? Advice.PARTITIONED_INDEX
        : ActionAdvisor.adviseIndex(relation, blocks, reclaimableBytes(), thresholds);
  }

  /** A partitioned index's row summing {@code leaves}. */
  public static IndexReport rollup(Relation index, List<IndexReport> leaves) {
    return new IndexReport(index, leaves.stream().mapToLong(IndexReport::blocks).sum(), null,
        leaves.stream().map(IndexReport::sampleSeed).filter(Objects::nonNull).findFirst().orElse(null), leaves,
        ActionThresholds.DEFAULT);
  }

  /** Whether this row sums a partitioned index's leaves (which have rows of their own). */
  public boolean isRollup() {
    return relation.kind() == RelKind.PARTITIONED_INDEX;
  }

  /** Pages that failed the checks. */
  public long badPages() {
    if (isRollup()) {
      return partitions.stream().mapToLong(IndexReport::badPages).sum();
    }
    return pages != null ? pages.badPages() : 0;
  }

  /** Whether its pages were read at all (the methods with a page counter). */
  public boolean isAnalysed() {
    return isRollup() ? partitions.stream().anyMatch(IndexReport::isAnalysed) : pages != null;
  }

  /**
   * What a REINDEX would give back, or null where it is not estimated (an access method
   * without a rebuild model, a rollup, whose column sums its leaves'); 0 for an index with no
   * blocks (its file is missing: a finding of its own).
   */
  public Estimate reclaimableBytes() {
    if (isRollup()) {
      return null;
    }
    if (blocks == 0) {
      return Estimate.exact(0);
    }
    return pages != null ? pages.reclaimableBytes() : null;
  }
}
