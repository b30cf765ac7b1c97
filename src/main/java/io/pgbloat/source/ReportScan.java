package io.pgbloat.source;

import io.pgbloat.frame.ReportFrame;
import io.pgbloat.report.Column;
import io.pgbloat.spark.Analysis;
import io.pgbloat.spark.RunMetrics;
import java.util.List;
import java.util.function.Function;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.types.StructType;

/**
 * A report the driver holds whole as a local scan: the relation report ({@code level} report),
 * the index report ({@code level} indexes) or the totals ({@code level} totals), the CLI's
 * columns, typed (those the query asks for). The analysis runs its own Spark jobs on the active
 * session when the query is planned, and its rows (one per relation, small) are the scan's rows.
 * Planning the same DataFrame again analyzes again; {@code cache()} it to keep one answer.
 */
final class ReportScan<R> implements LocalScan {
  private final PushedOptions options;
  private final String what;
  private final List<Column<R>> columns;
  private final Function<Analysis, List<R>> rowsOf;
  private InternalRow[] rows;
  private RunMetrics metrics; // what reading took, once rows() ran

  /**
   * @param what the report's name, for the plan's description
   * @param columns the columns the scan returns, in order
   * @param rowsOf the report's rows of an analysis
   */
  ReportScan(PushedOptions options, String what, List<Column<R>> columns, Function<Analysis, List<R>> rowsOf) {
    this.options = options;
    this.what = what;
    this.columns = List.copyOf(columns);
    this.rowsOf = rowsOf;
  }

  @Override
  public StructType readSchema() {
    return ReportFrame.schema(columns);
  }

  @Override
  public String description() {
    return "pgbloat " + what + " of " + options.options().dataDir() + " (" + options.options().sampleSize() + ")";
  }

  @Override
  public synchronized InternalRow[] rows() {
    if (rows == null) {
      Analysis analysis = options.analyze();
      rows = rowsOf.apply(analysis).stream().map(r -> InternalRows.of(ReportFrame.values(columns, r)))
          .toArray(InternalRow[]::new);
      metrics = analysis.metrics();
    }
    return rows;
  }

  /** What the analysis read (blocks, reads, seconds); null until {@link #rows} ran. */
  synchronized RunMetrics metrics() {
    return metrics;
  }
}
