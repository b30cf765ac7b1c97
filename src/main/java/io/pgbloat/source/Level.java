package io.pgbloat.source;

import io.pgbloat.frame.ReportFrame;
import io.pgbloat.report.IndexColumns;
import io.pgbloat.report.RelationColumns;
import io.pgbloat.report.TotalColumns;
import org.apache.spark.sql.types.StructType;

/**
 * What a read returns: the report (one row per relation), one row per page read, the indexes,
 * or each table's total.
 */
enum Level {
  REPORT,
  PAGES,
  INDEXES,
  TOTALS;

  StructType schema() {
    return switch (this) {
      case REPORT -> ReportFrame.schema(RelationColumns.ALL);
      case PAGES -> PageRows.SCHEMA;
      case INDEXES -> ReportFrame.schema(IndexColumns.ALL);
      case TOTALS -> ReportFrame.schema(TotalColumns.ALL);
    };
  }
}
