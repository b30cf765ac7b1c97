package io.pgbloat.source;

import io.pgbloat.report.Column;
import io.pgbloat.report.IndexColumns;
import io.pgbloat.frame.ReportFrame;
import io.pgbloat.report.TotalColumns;
import io.pgbloat.spark.Analysis;
import io.pgbloat.spark.AnalyzeOptions;
import io.pgbloat.spark.BloatAnalyzer;
import io.pgbloat.stats.IndexReport;
import io.pgbloat.stats.TableTotal;
import java.util.List;
import java.util.function.Function;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.types.StructType;

/**
 * A report the driver holds whole as a local scan: the index report ({@code level} indexes)
 * or the totals ({@code level} totals), the CLI's columns, typed, from the analysis's own jobs
 * run at planning.
 */
final class ColumnReportScan<R> implements LocalScan {
  private final AnalyzeOptions options;
  private final String what;
  private final List<Column<R>> columns;
  private final Function<Analysis, List<R>> rowsOf;
  private InternalRow[] rows;

  private ColumnReportScan(AnalyzeOptions options, String what, List<Column<R>> columns,
      Function<Analysis, List<R>> rowsOf) {
    this.options = options;
    this.what = what;
    this.columns = columns;
    this.rowsOf = rowsOf;
  }

  /** The index report: only the indexes are reported (relkinds i and I), their tables read unreported. */
  static ColumnReportScan<IndexReport> indexes(AnalyzeOptions options) {
    return new ColumnReportScan<>(options, "indexes", IndexColumns.ALL, Analysis::indexes);
  }

  /** The totals: each table with its TOAST table and indexes. */
  static ColumnReportScan<TableTotal> totals(AnalyzeOptions options) {
    return new ColumnReportScan<>(options, "totals", TotalColumns.ALL, Analysis::totals);
  }

  @Override
  public StructType readSchema() {
    return ReportFrame.schema(columns);
  }

  @Override
  public String description() {
    return "pgbloat " + what + " of " + options.dataDir();
  }

  @Override
  public synchronized InternalRow[] rows() {
    if (rows == null) {
      List<R> report = rowsOf.apply(new BloatAnalyzer(SparkSession.active()).analyze(options));
      rows = report.stream().map(r -> InternalRows.of(ReportFrame.values(columns, r))).toArray(InternalRow[]::new);
    }
    return rows;
  }
}
