package io.pgbloat.spark;

import io.pgbloat.rows.IndexReport;
import io.pgbloat.rows.RelationReport;
import io.pgbloat.rows.TableTotal;
import io.pgbloat.stats.DeadFractionHistogram;
import java.util.List;

/**
 * The outcome of one run.
 *
 * @param rows one per relation, in catalog order (database, schema, name)
 * @param findings bad pages and files, one line each, against their relation
 * @param badPages bad pages in all relations (findings may list fewer)
 * @param warnings things to know that do not change a figure
 * @param metrics how the scan went
 * @param histograms per relation read, its pages read counted by dead fraction
 * @param indexes one per index when asked (its access method's figures), else empty
 * @param totals one per reported table when asked: heap, TOAST and indexes together, else empty
 */
public record Analysis(
    List<RelationReport> rows, List<String> findings, long badPages, List<String> warnings, RunMetrics metrics,
    List<DeadFractionHistogram> histograms, List<IndexReport> indexes, List<TableTotal> totals) {

  /** Whether anything was found wrong with the data (exit status 1). */
  public boolean hasFindings() {
    return !findings.isEmpty() || badPages > 0;
  }
}
