package io.pgbloat.source;

import io.pgbloat.report.ReportFrame;
import org.apache.spark.sql.types.StructType;

/** What a read returns: the report (one row per relation), one row per page read, or the indexes. */
enum Level {
  REPORT,
  PAGES,
  INDEXES;

  StructType schema() {
    return switch (this) {
      case REPORT -> ReportFrame.schema();
      case PAGES -> PageRows.SCHEMA;
      case INDEXES -> IndexReportScan.SCHEMA;
    };
  }
}
