package io.pgbloat.source;

import io.pgbloat.report.IndexColumn;
import io.pgbloat.spark.AnalyzeOptions;
import io.pgbloat.spark.BloatAnalyzer;
import io.pgbloat.stats.IndexReport;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The btree index report as a local scan ({@code level} indexes): the CLI's index columns,
 * typed; only the indexes are read (relkind i), by the analysis's own jobs at planning.
 */
final class IndexReportScan implements LocalScan {
  static final StructType SCHEMA = IndexColumn.schema();

  private final AnalyzeOptions options;
  private InternalRow[] rows;

  IndexReportScan(AnalyzeOptions options) {
    this.options = options;
  }

  @Override
  public StructType readSchema() {
    return SCHEMA;
  }

  @Override
  public String description() {
    return "pgbloat btree indexes of " + options.dataDir();
  }

  @Override
  public synchronized InternalRow[] rows() {
    if (rows == null) {
      List<IndexReport> indexes = new BloatAnalyzer(SparkSession.active()).analyze(options).indexes();
      rows = indexes.stream().map(IndexReportScan::row).toArray(InternalRow[]::new);
    }
    return rows;
  }

  private static InternalRow row(IndexReport report) {
    List<IndexColumn> columns = IndexColumn.ALL;
    Object[] values = new Object[columns.size()];
    for (int i = 0; i < values.length; i++) {
      Object v = columns.get(i).typedValue(report);
      values[i] = v instanceof String text ? UTF8String.fromString(text) : v;
    }
    return new GenericInternalRow(values);
  }
}
