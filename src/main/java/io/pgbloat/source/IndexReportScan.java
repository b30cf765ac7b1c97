package io.pgbloat.source;

import io.pgbloat.report.IndexColumn;
import io.pgbloat.spark.AnalyzeOptions;
import io.pgbloat.spark.BloatAnalyzer;
import io.pgbloat.stats.IndexReport;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.types.StructType;

/**
 * The index report as a local scan ({@code level} indexes): the CLI's index columns,
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
    return "pgbloat indexes of " + options.dataDir();
  }

  @Override
  public synchronized InternalRow[] rows() {
    if (rows == null) {
      List<IndexReport> indexes = new BloatAnalyzer(SparkSession.active()).analyze(options).indexes();
      rows = indexes.stream().map(r -> InternalRows.of(IndexColumn.ALL.stream().map(c -> c.typedValue(r)).toArray()))
          .toArray(InternalRow[]::new);
    }
    return rows;
  }
}
