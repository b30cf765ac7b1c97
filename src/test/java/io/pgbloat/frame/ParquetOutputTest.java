package io.pgbloat.frame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.report.Column;
import io.pgbloat.report.IndexColumns;
import io.pgbloat.report.RelationColumns;
import io.pgbloat.report.TotalColumns;
import io.pgbloat.rows.RelationReport;
import io.pgbloat.testing.Csv;
import io.pgbloat.testing.LocalSpark;
import io.pgbloat.testing.SampleData;
import io.pgbloat.testing.ToolRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --format parquet} and {@code --append-to} through the command line on the shipped
 * sample, read back with Spark: the Parquet report holds the CSV report's cells; two appended
 * runs are two runs; an existing output directory is refused before any work.
 */
class ParquetOutputTest {
  @TempDir
  Path tmp;

  @Test
  void parquetRoundTripAndTwoAppendedRuns() {
    String dataDir = SampleData.dataDir().toString();
    String parquet = tmp.resolve("report.parquet").toString();
    String history = tmp.resolve("history").toString();
    String indexes = tmp.resolve("indexes.parquet").toString();
    String totals = tmp.resolve("totals.parquet").toString();
    List<String> common = List.of("analyze", "--data-dir", dataDir, "--sample-blocks", "5", "--master", "local[2]");
    ToolRun csv = run(common, "--format", "csv");
    ToolRun first = run(common, "--format", "parquet", "--output", parquet, "--append-to", history, "--indexes",
        "--index-output", indexes, "--totals", "--totals-output", totals);
    ToolRun second = run(common, "--format", "csv", "--output", tmp.resolve("second.csv").toString(),
        "--append-to", history);
    for (ToolRun r : List.of(csv, first, second)) {
      assertEquals(0, r.status(), r.describe());
    }
    ToolRun again = run(common, "--format", "parquet", "--output", parquet);
    assertEquals(2, again.status(), again.describe());
    assertTrue(again.err().contains("cannot write --output " + parquet + ": it exists"), again.err());

    SparkSession spark = LocalSpark.session("parquet-output-test", 1);
    try {
      List<Map<String, String>> expected = Csv.parseWithHeader(csv.out());
      List<Row> rows = spark.read().parquet(parquet).collectAsList();
      assertEquals(expected.size(), rows.size());
      for (int i = 0; i < rows.size(); i++) {
        for (Column<RelationReport> column : RelationColumns.ALL) {
          Object got = rows.get(i).getAs(column.name());
          String text = expected.get(i).get(column.name());
          Object want = text.isEmpty() && column.type() != Column.Type.TEXT ? null : column.type().parse(text);
          assertEquals(want, got, "row " + i + " " + column.name());
        }
      }
      Dataset<Row> indexRows = spark.read().parquet(indexes);
      assertEquals(IndexColumns.ALL.stream().map(Column::name).toList(), List.of(indexRows.columns()));
      assertTrue(indexRows.count() > 100, "btree indexes of the sample");
      assertEquals(0L, indexRows.where("leaf_pages IS NULL OR index_size <= 0").count());
      Dataset<Row> totalRows = spark.read().parquet(totals);
      assertEquals(TotalColumns.ALL.stream().map(Column::name).toList(),
          List.of(totalRows.columns()));
      assertEquals(0L, totalRows.where("total_bytes <> table_bytes + toast_bytes + index_bytes").count());
      assertTrue(totalRows.where("relname = 'orders' AND indexes > 0").count() == 1, "orders with its indexes");
      Dataset<Row> runs = spark.read().parquet(history);
      assertEquals(2L * expected.size(), runs.count());
      assertEquals(2L, runs.select(ParquetReport.RUN_AT).distinct().count());
      assertEquals(1L, runs.select(ParquetReport.RUN_DATE).distinct().count());
    } finally {
      LocalSpark.stop(spark);
    }
  }

  private static ToolRun run(List<String> common, String... more) {
    return ToolRun.of(java.util.stream.Stream.concat(common.stream(), java.util.Arrays.stream(more))
        .toArray(String[]::new));
  }
}
