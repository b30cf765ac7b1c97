package io.pgbloat.frame;

import io.pgbloat.report.Column;
import io.pgbloat.report.IndexColumns;
import io.pgbloat.report.RelationColumns;
import io.pgbloat.report.TotalColumns;
import io.pgbloat.rows.IndexReport;
import io.pgbloat.rows.RelationReport;
import io.pgbloat.rows.TableTotal;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * The report as Parquet: one run into a new directory ({@code --format parquet --output DIR}),
 * or added to a dataset of runs ({@code --append-to PATH}), partitioned by the run's date
 * and stamped with {@code run_at}, so bloat over time is one query away.
 */
public final class ParquetReport {
  /** The partition column of an appended dataset: the run's UTC date, yyyy-MM-dd. */
  public static final String RUN_DATE = "run_date";
  /** When the run started, UTC. */
  public static final String RUN_AT = "run_at";

  private ParquetReport() {}

  /** Writes the relation report as one file into {@code dir}, which must not exist yet. */
  public static void write(SparkSession spark, List<RelationReport> rows, String dir) {
    write(spark, RelationColumns.ALL, rows, dir);
  }

  /** Writes the index report as one file into {@code dir}, which must not exist yet. */
  public static void writeIndexes(SparkSession spark, List<IndexReport> rows, String dir) {
    write(spark, IndexColumns.ALL, rows, dir);
  }

  /** Writes the totals as one file into {@code dir}, which must not exist yet. */
  public static void writeTotals(SparkSession spark, List<TableTotal> rows, String dir) {
    write(spark, TotalColumns.ALL, rows, dir);
  }

  /** Writes a report of {@code columns} as one file (rows are few) into {@code dir}, which must not exist yet. */
  private static <R> void write(SparkSession spark, List<Column<R>> columns, List<R> rows, String dir) {
    ReportFrame.of(spark, columns, rows).coalesce(1).write().mode(SaveMode.ErrorIfExists).parquet(dir);
  }

  /** Adds this run to the dataset at {@code path} (made when absent). */
  public static void append(SparkSession spark, List<RelationReport> rows, Instant runAt, String path) {
    Dataset<Row> run = ReportFrame.of(spark, RelationColumns.ALL, rows)
        .withColumn(RUN_AT, functions.lit(Timestamp.from(runAt)))
        .withColumn(RUN_DATE, functions.lit(runAt.atOffset(ZoneOffset.UTC).toLocalDate().toString()));
    run.coalesce(1).write().mode(SaveMode.Append).partitionBy(RUN_DATE).parquet(path);
  }
}
