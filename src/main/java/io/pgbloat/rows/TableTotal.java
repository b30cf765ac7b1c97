package io.pgbloat.rows;

import io.pgbloat.catalog.Relation;
import io.pgbloat.figures.RelationFigures;
import io.pgbloat.page.PageHeader;
import io.pgbloat.stats.Estimate;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * One table's total, grouped as {@code pg_total_relation_size} groups it
 * ({@code src/backend/utils/adt/dbsize.c}: the table, its TOAST table and the TOAST table's
 * index, and every index of the table), main forks only: what it occupies, what it wastes,
 * and what rewriting it and rebuilding its indexes (VACUUM FULL does both) would give back.
 * A partitioned table's total (pg_total_relation_size gives 0 for one, having no storage)
 * sums its leaf partitions' parts.
 *
 * @param table the table (or materialized view), or a partitioned table
 * @param heaps the rows of its heap relations: the table itself (or its leaf partitions) and
 *     their TOAST tables
 * @param indexes the rows of every index of those heaps (TOAST indexes included)
 * @param partitions for a partitioned table, its leaf partitions counted; else 0
 */
public record TableTotal(Relation table, List<RelationReport> heaps, List<IndexReport> indexes, int partitions)
    implements Serializable {

  public TableTotal {
    heaps = List.copyOf(heaps);
    indexes = List.copyOf(indexes);
  }

  /** The table's own pages (its leaf partitions' for a partitioned table). */
  public long tableBytes() {
    return heaps.stream().filter(r -> !r.relation().isToast()).mapToLong(r -> r.figures().tableLen()).sum();
  }

  /** Its TOAST tables' pages. */
  public long toastBytes() {
    return heaps.stream().filter(r -> r.relation().isToast()).mapToLong(r -> r.figures().tableLen()).sum();
  }

  /** Its indexes' pages (TOAST indexes included). */
  public long indexBytes() {
    return indexes.stream().mapToLong(r -> r.blocks() * PageHeader.BLCKSZ).sum();
  }

  public long totalBytes() {
    return tableBytes() + toastBytes() + indexBytes();
  }

  /** Dead plus free bytes of the table and its TOAST tables ({@link RelationFigures#wastedBytes}). */
  public Estimate wastedBytes() {
    return Estimate.sum(heaps.stream().map(r -> r.figures().wastedBytes()).toList());
  }

  /** What a rewrite of the table (or its partitions) gives back. */
  public Estimate tableReclaimableBytes() {
    return Estimate.sum(heaps.stream().filter(r -> !r.relation().isToast()).map(r -> r.figures().reclaimableBytes())
        .toList());
  }

  /** What a rewrite of its TOAST tables gives back. */
  public Estimate toastReclaimableBytes() {
    return Estimate.sum(heaps.stream().filter(r -> r.relation().isToast()).map(r -> r.figures().reclaimableBytes())
        .toList());
  }

  /** What rebuilding its indexes gives back: those with an estimate ({@link #notEstimated} lists the others). */
  public Estimate indexReclaimableBytes() {
    return Estimate.sum(indexes.stream().map(IndexReport::reclaimableBytes).filter(TableTotal::isEstimated).toList());
  }

  private static boolean isEstimated(Estimate e) {
    return e != null && e.isKnown();
  }

  /** Table, TOAST and index reclaimable bytes: what VACUUM FULL would give back. */
  public Estimate reclaimableBytes() {
    return Estimate.sum(List.of(tableReclaimableBytes(), toastReclaimableBytes(), indexReclaimableBytes()));
  }

  /**
   * The free disk a VACUUM FULL of the table needs while it runs: the new copies of the table,
   * its TOAST table and its rebuilt indexes all exist before the old files go at commit
   * ({@code src/backend/commands/cluster.c}, finish_heap_swap). The total less the least the
   * interval says they give back, so it errs towards more; an index not estimated counts whole.
   */
  public long rewriteNeedsBytes() {
    Estimate reclaimable = reclaimableBytes();
    return reclaimable.isKnown() ? Math.max(0, Math.round(totalBytes() - reclaimable.low())) : totalBytes();
  }

  /** reclaimable bytes over total bytes, in percent. */
  public Estimate reclaimablePercent() {
    return reclaimableBytes().scaled(100.0, totalBytes());
  }

  /**
   * The indexes whose reclaimable bytes are not estimated, as schema.name (am), or (am, unread)
   * when nothing of them could be read: an access method without a rebuild model, or whose
   * pages this tool does not read, or pages all bad. The total's reclaimable bytes leave them
   * out, so it errs towards less to give back.
   */
  public List<String> notEstimated() {
    List<String> names = new ArrayList<>();
    for (IndexReport index : indexes) {
      Estimate e = index.reclaimableBytes();
      if (!isEstimated(e)) {
        names.add(index.relation().schema() + "." + index.relation().name() + " (" + index.relation().am()
            + (e == null ? "" : ", unread") + ")");
      }
    }
    return names;
  }

  /** Whether a figure was estimated from a sample rather than read whole. */
  public boolean isSampled() {
    return heaps.stream().anyMatch(r -> r.sampleSeed() != null) || indexes.stream().anyMatch(r -> r.sampleSeed() != null);
  }
}
