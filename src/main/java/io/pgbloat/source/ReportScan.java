package io.pgbloat.source;

import io.pgbloat.frame.ReportFrame;
import io.pgbloat.spark.Analysis;
import io.pgbloat.spark.AnalyzeOptions;
import io.pgbloat.spark.BloatAnalyzer;
import io.pgbloat.spark.NoMatchException;
import io.pgbloat.spark.RunMetrics;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.types.StructType;

/**
 * The report as a local scan: the analysis runs its own Spark jobs on the active session
 * when the query is planned, and its rows (one per relation, small) are the scan's rows.
 * Planning the same DataFrame again analyzes again; {@code cache()} it to keep one answer.
 */
final class ReportScan implements LocalScan {
  private final AnalyzeOptions options;
  private final AnalyzeOptions unfiltered; // the options before a query's filters narrowed them
  private InternalRow[] rows;
  private RunMetrics metrics; // what reading took, once rows() ran

  ReportScan(AnalyzeOptions options) {
    this(options, options);
  }

  /**
   * @param narrowed {@code options} narrowed by pushed filters; when they name a database or
   *     table the directory lacks, {@code options} alone are read and Spark's filter keeps what
   *     it keeps (an empty answer, not an error)
   */
  ReportScan(AnalyzeOptions narrowed, AnalyzeOptions options) {
    this.options = narrowed;
    this.unfiltered = options;
  }

  @Override
  public StructType readSchema() {
    return ReportFrame.schema();
  }

  @Override
  public String description() {
    return "pgbloat report of " + options.dataDir() + " (" + options.sampleSize() + ")";
  }

  @Override
  public synchronized InternalRow[] rows() {
    if (rows == null) {
      Analysis analysis;
      try {
        analysis = new BloatAnalyzer(SparkSession.active()).analyze(options);
      } catch (NoMatchException e) {
        if (options == unfiltered) {
          throw e;
        }
        analysis = new BloatAnalyzer(SparkSession.active()).analyze(unfiltered);
      }
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
