package io.pgbloat.frame;

import io.pgbloat.report.Column;
import io.pgbloat.report.ReportColumn;
import io.pgbloat.rows.RelationReport;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** The report as a DataFrame: the CSV's columns, in its order, typed by {@link ReportColumn.Type}. */
public final class ReportFrame {
  private ReportFrame() {}

  /** The report's columns ({@link ReportColumn#ALL}) as a Spark schema. */
  public static StructType schema() {
    return DataTypes.createStructType(ReportColumn.ALL.stream().map(c -> field(c.name(), c.type())).toList());
  }

  /** {@code columns} (the index report's, the totals') as a Spark schema. */
  public static <R> StructType schema(List<Column<R>> columns) {
    return DataTypes.createStructType(columns.stream().map(c -> field(c.name(), c.type())).toList());
  }

  private static StructField field(String name, ReportColumn.Type type) {
    return DataTypes.createStructField(name, sparkType(type), true);
  }

  /** The Spark type of a column of {@code type}. */
  public static DataType sparkType(ReportColumn.Type type) {
    return switch (type) {
      case TEXT -> DataTypes.StringType;
      case INTEGER -> DataTypes.LongType;
      case DECIMAL -> DataTypes.DoubleType;
      case BOOLEAN -> DataTypes.BooleanType;
    };
  }

  /** One row's cells as typed values (String, Long, Double or null), in column order. */
  public static Object[] values(RelationReport report) {
    List<ReportColumn> columns = ReportColumn.ALL;
    Object[] values = new Object[columns.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = columns.get(i).typedValue(report);
    }
    return values;
  }

  public static Dataset<Row> of(SparkSession spark, List<RelationReport> rows) {
    return frame(spark, schema(), rows.stream().map(ReportFrame::values).toList());
  }

  /** Rows of a report of {@code columns} as a DataFrame, typed. */
  public static <R> Dataset<Row> of(SparkSession spark, List<Column<R>> columns, List<R> rows) {
    return frame(spark, schema(columns), rows.stream().map(r -> values(columns, r)).toList());
  }

  /** One row's cells of {@code columns} as typed values, in column order. */
  public static <R> Object[] values(List<Column<R>> columns, R row) {
    return columns.stream().map(c -> c.typedValue(row)).toArray();
  }

  private static Dataset<Row> frame(SparkSession spark, StructType schema, List<Object[]> rows) {
    List<Row> data = new ArrayList<>();
    rows.forEach(values -> data.add(RowFactory.create(values)));
    return spark.createDataFrame(data, schema);
  }
}
