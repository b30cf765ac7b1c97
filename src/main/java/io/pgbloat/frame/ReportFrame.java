package io.pgbloat.frame;

import io.pgbloat.report.Column;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * A report of {@link Column}s (the relation report's, the index report's, the totals') as a
 * DataFrame: the CSV's columns, in its order, typed by {@link Column.Type}.
 */
public final class ReportFrame {
  private ReportFrame() {}

  /** {@code columns} as a Spark schema, every column nullable. */
  public static <R> StructType schema(List<Column<R>> columns) {
    return DataTypes.createStructType(columns.stream()
        .map(c -> DataTypes.createStructField(c.name(), sparkType(c.type()), true)).toList());
  }

  /** The Spark type of a column of {@code type}. */
  private static DataType sparkType(Column.Type type) {
    return switch (type) {
      case TEXT -> DataTypes.StringType;
      case INTEGER -> DataTypes.LongType;
      case DECIMAL -> DataTypes.DoubleType;
      case BOOLEAN -> DataTypes.BooleanType;
    };
  }

  /** Rows of a report of {@code columns} as a DataFrame, typed. */
  public static <R> Dataset<Row> of(SparkSession spark, List<Column<R>> columns, List<R> rows) {
    List<Row> data = new ArrayList<>();
    rows.forEach(r -> data.add(RowFactory.create(values(columns, r))));
    return spark.createDataFrame(data, schema(columns));
  }

  /** One row's cells of {@code columns} as typed values (String, Long, Double, Boolean or null), in column order. */
  public static <R> Object[] values(List<Column<R>> columns, R row) {
    return columns.stream().map(c -> c.typedValue(row)).toArray();
  }
}
