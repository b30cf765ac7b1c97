package io.pgbloat.source;

import io.pgbloat.frame.ReportFrame;
import io.pgbloat.spark.Analysis;
import io.pgbloat.spark.RunMetrics;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.types.StructType;

/**
 * The report as a local scan: the analysis runs its own Spark jobs on the active session
 * when the query is planned, and its rows (one per relation, small) are the scan's rows.
 * Planning the same DataFrame again analyzes again; {@code cache()} it to keep one answer.
 */
final class ReportScan implements LocalScan {
  private final PushedOptions options;
  private InternalRow[] rows;
  private RunMetrics metrics; // what reading took, once rows() ran

  ReportScan(PushedOptions options) {
    this.options = options;
  }

  @Override
  public StructType readSchema() {
    return ReportFrame.schema();
  }

  @Override
  public String description() {
    return "pgbloat report of " + options.options().dataDir() + " (" + options.options().sampleSize() + ")";
  }

  @Override
  public synchronized InternalRow[] rows() {
    if (rows == null) {
      Analysis analysis = options.analyze();
      rows = analysis.rows().stream().map(r -> InternalRows.of(ReportFrame.values(r))).toArray(InternalRow[]::new);
      metrics = analysis.metrics();
    }
    return rows;
  }

  /** What the analysis read (blocks, reads, seconds); null until {@link #rows} ran. */
  synchronized RunMetrics metrics() {
    return metrics;
  }
}
