package io.pgbloat.source;

import io.pgbloat.report.ReportColumn;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** What a read returns: the report (one row per relation) or one row per page read. */
enum Level {
  REPORT,
  PAGES;

  StructType schema() {
    return this == REPORT ? reportSchema() : PageRows.SCHEMA;
  }

  /** The CLI's columns, in its order, typed as {@link ReportColumn.Type} says. */
  static StructType reportSchema() {
    StructField[] fields = ReportColumn.ALL.stream()
        .map(c -> DataTypes.createStructField(c.name(), sparkType(c.type()), true))
        .toArray(StructField[]::new);
    return DataTypes.createStructType(fields);
  }

  static DataType sparkType(ReportColumn.Type type) {
    return switch (type) {
      case TEXT -> DataTypes.StringType;
      case INTEGER -> DataTypes.LongType;
      case DECIMAL -> DataTypes.DoubleType;
    };
  }
}
