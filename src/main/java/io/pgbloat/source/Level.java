package io.pgbloat.source;

import io.pgbloat.report.ReportFrame;
import org.apache.spark.sql.types.StructType;

/** What a read returns: the report (one row per relation) or one row per page read. */
enum Level {
  REPORT,
  PAGES;

  StructType schema() {
    return this == REPORT ? ReportFrame.schema() : PageRows.SCHEMA;
  }
}
