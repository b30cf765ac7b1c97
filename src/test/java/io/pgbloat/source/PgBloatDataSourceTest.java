package io.pgbloat.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.report.Column;
import io.pgbloat.report.RelationColumns;
import io.pgbloat.testing.Csv;
import io.pgbloat.testing.LocalSpark;
import io.pgbloat.testing.SampleData;
import io.pgbloat.testing.ToolRun;
import io.pgbloat.testing.VersionSample;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code spark.read.format("pgbloat")} on the shipped sample directory, on a real local Spark:
 * the report equals the CLI's, cell by cell; the page view's sums equal the report's figures
 * on a full scan and its rows are the report's sampled blocks on a sample.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PgBloatDataSourceTest {
  private static final List<List<String>> CLI_RUNS = List.of(List.of("--full-scan"),
      List.of("--sample-blocks", "5", "--seed", "7"));
  private SparkSession spark;
  private final String dataDir = SampleData.dataDir().toString();
  private final Map<List<String>, ToolRun> cli = new HashMap<>();
  private String cliIndexes;
  private String cliTotals;

  @BeforeAll
  void runTheCommandLineThenStartSpark() throws java.io.IOException {
    // first: the command line stops its Spark session when done, which would be this one
    for (List<String> flags : CLI_RUNS) {
      cli.put(flags, ToolRun.of(concat(List.of("analyze", "--data-dir", dataDir, "--format", "csv", "--master",
          "local[2]"), flags)));
    }
    java.nio.file.Path indexCsv = java.nio.file.Files.createTempFile("pgbloat-indexes", ".csv");
    java.nio.file.Path totalsCsv = java.nio.file.Files.createTempFile("pgbloat-totals", ".csv");
    ToolRun indexes = ToolRun.of("analyze", "--data-dir", dataDir, "--sample-blocks", "3", "--seed", "4", "--indexes",
        "--format", "csv", "--output", "/dev/null", "--index-output", indexCsv.toString(), "--totals",
        "--totals-output", totalsCsv.toString(), "--master", "local[2]");
    assertEquals(0, indexes.status(), indexes.describe());
    cliIndexes = java.nio.file.Files.readString(indexCsv);
    cliTotals = java.nio.file.Files.readString(totalsCsv);
    java.nio.file.Files.delete(indexCsv);
    java.nio.file.Files.delete(totalsCsv);
    spark = LocalSpark.session("pgbloat-source-test", 2);
  }

  @AfterAll
  void stopSpark() {
    LocalSpark.stop(spark);
  }

  /**
   * A notebook's filters on names and kinds are pushed down: the same rows as filtering the whole
   * report, read from fewer blocks (the scan's own counters).
   */
  @Test
  void filtersOnNamesArePushedDownAndReadLess() {
    Map<String, String> options = Map.of("fullScan", "true");
    String where = "database = 'shop' AND relname LIKE 'order%' AND relkind = 'r'";
    List<String> filtered = read(options).where(where).collectAsList().stream().map(Row::toString).sorted().toList();
    List<String> all = read(options).collectAsList().stream()
        .filter(r -> "shop".equals(r.getAs("database")) && r.<String>getAs("relname").startsWith("order")
            && "r".equals(r.getAs("relkind")))
        .map(Row::toString).sorted().toList();
    assertFalse(filtered.isEmpty());
    assertEquals(all, filtered);
    // a pushed name the directory lacks is an empty answer, not an error; IN keeps the others
    assertEquals(0, read(options).where("relname = 'nosuch'").count());
    assertEquals(read(options).where("database = 'shop'").count(),
        read(options).where("database IN ('shop', 'nosuch')").count());
    assertEquals(read(options).collectAsList().stream().filter(r -> "".equals(r.getAs("database"))).count(),
        read(options).where("database = ''").count(), "the shared catalogs' rows");

    SourceOptions parsed = SourceOptions.parse(new CaseInsensitiveStringMap(Map.of("path", dataDir, "fullScan", "true")));
    ReportScanBuilder whole = new ReportScanBuilder(Level.REPORT, parsed.analyze());
    ReportScanBuilder narrowed = new ReportScanBuilder(Level.REPORT, parsed.analyze());
    org.apache.spark.sql.sources.Filter[] filters = {new org.apache.spark.sql.sources.EqualTo("database", "shop"),
        new org.apache.spark.sql.sources.StringStartsWith("relname", "order"),
        new org.apache.spark.sql.sources.EqualTo("relkind", "r"),
        new org.apache.spark.sql.sources.GreaterThan("tuple_count", 5L)};
    assertEquals(4, narrowed.pushFilters(filters).length, "every filter still applies to the rows");
    assertEquals(3, narrowed.pushedFilters().length, "the name and kind filters are taken, the figure's is not");
    ReportScan<?> wholeScan = (ReportScan<?>) whole.build();
    ReportScan<?> narrowedScan = (ReportScan<?>) narrowed.build();
    wholeScan.rows();
    narrowedScan.rows();
    long wholeBlocks = wholeScan.metrics().reads().blocks();
    long narrowedBlocks = narrowedScan.metrics().reads().blocks();
    assertTrue(narrowedBlocks > 0 && narrowedBlocks * 10 < wholeBlocks,
        narrowedBlocks + " blocks read for the order tables, " + wholeBlocks + " for all");
  }

  /** The index report takes the same filters: on the index's own names, the rows of filtering it whole. */
  @Test
  void indexFiltersArePushedDownAndReadLess() {
    Map<String, String> options = Map.of("level", "indexes", "fullScan", "true");
    String where = "database = 'shop' AND relname LIKE 'orders%'";
    List<String> filtered = read(options).where(where).collectAsList().stream().map(Row::toString).sorted().toList();
    List<String> all = read(options).collectAsList().stream()
        .filter(r -> "shop".equals(r.getAs("database")) && r.<String>getAs("relname").startsWith("orders"))
        .map(Row::toString).sorted().toList();
    assertFalse(filtered.isEmpty());
    assertEquals(all, filtered);

    ReportScanBuilder narrowed = builder(Level.INDEXES, options);
    narrowed.pushFilters(new org.apache.spark.sql.sources.Filter[] {
        new org.apache.spark.sql.sources.EqualTo("database", "shop"),
        new org.apache.spark.sql.sources.StringStartsWith("relname", "orders")});
    assertEquals(2, narrowed.pushedFilters().length);
    long narrowedBlocks = blocksRead(narrowed);
    long wholeBlocks = blocksRead(builder(Level.INDEXES, options));
    assertTrue(narrowedBlocks > 0 && narrowedBlocks * 10 < wholeBlocks,
        narrowedBlocks + " blocks read for the orders indexes, " + wholeBlocks + " for all");
  }

  /**
   * Totals asked for no column the indexes go into are answered without reading them: the same
   * cells as the full totals, from fewer blocks; and the totals take the filters too.
   */
  @Test
  void totalsWithoutIndexColumnsLeaveTheIndexesUnread() {
    Map<String, String> options = Map.of("level", "totals", "fullScan", "true");
    String[] heapColumns = {"schema", "relname", "table_bytes", "toast_bytes", "wasted_bytes",
        "table_reclaimable_bytes", "toast_reclaimable_bytes_ci_high"};
    List<String> pruned = read(options).select("database", heapColumns).collectAsList().stream().map(Row::toString)
        .sorted().toList();
    List<String> whole = read(options).cache().select("database", heapColumns).collectAsList().stream()
        .map(Row::toString).sorted().toList();
    assertTrue(pruned.size() > 5);
    assertEquals(whole, pruned);
    assertEquals(1, read(options).where("relname = 'orders'").count());

    ReportScanBuilder heapsOnly = builder(Level.TOTALS, options);
    heapsOnly.pruneColumns(new org.apache.spark.sql.types.StructType().add("relname", "string")
        .add("table_reclaimable_bytes", "long"));
    ReportScanBuilder withIndexes = builder(Level.TOTALS, options);
    withIndexes.pruneColumns(new org.apache.spark.sql.types.StructType().add("relname", "string")
        .add("index_reclaimable_bytes", "long"));
    assertEquals(List.of("relname", "table_reclaimable_bytes"),
        List.of(heapsOnly.build().readSchema().fieldNames()), "the scan returns the columns asked for");
    long heapBlocks = blocksRead(heapsOnly);
    long allBlocks = blocksRead(withIndexes);
    long indexBlocks = blocksRead(builder(Level.INDEXES, Map.of("fullScan", "true")));
    assertTrue(heapBlocks > 0 && heapBlocks < allBlocks, heapBlocks + " blocks without the indexes, " + allBlocks
        + " with");
    assertTrue(allBlocks - heapBlocks >= indexBlocks / 2, "the indexes' " + indexBlocks + " blocks are what was saved");
  }

  private ReportScanBuilder builder(Level level, Map<String, String> options) {
    Map<String, String> all = new java.util.HashMap<>(options);
    all.put("path", dataDir);
    return new ReportScanBuilder(level, SourceOptions.parse(new CaseInsensitiveStringMap(all)).analyze());
  }

  /** The blocks the scan the builder builds reads (its own counters). */
  private static long blocksRead(ReportScanBuilder builder) {
    ReportScan<?> scan = (ReportScan<?>) builder.build();
    scan.rows();
    return scan.metrics().reads().blocks();
  }

  /** A notebook reads a compressed backup as it reads the directory: the same rows, streamed. */
  @Test
  void aCompressedBackupReadsAsTheDirectory() {
    Map<String, String> options = Map.of("sampleBlocks", "5", "seed", "7");
    List<String> fromBackup = spark.read().format("pgbloat").options(options)
        .load(SampleData.compressedTarBackup().toString()).collectAsList().stream().map(Row::toString).toList();
    List<String> fromDirectory = read(options).collectAsList().stream().map(Row::toString).toList();
    assertTrue(fromBackup.size() > 10);
    assertEquals(fromDirectory, fromBackup);
  }

  private Dataset<Row> read(Map<String, String> options) {
    return read(options, dataDir);
  }

  private Dataset<Row> read(Map<String, String> options, String from) {
    return spark.read().format("pgbloat").options(options).load(from);
  }

  @Test
  void reportEqualsTheCommandLinesCellByCell() {
    for (List<String> flags : CLI_RUNS) {
      Map<String, String> options = flags.get(0).equals("--full-scan") ? Map.of("fullScan", "true")
          : Map.of("sampleBlocks", "5", "seed", "7");
      List<Row> rows = read(options).collectAsList();
      ToolRun run = cli.get(flags);
      assertEquals(0, run.status(), run.describe());
      List<Map<String, String>> expected = Csv.parseWithHeader(run.out());
      assertEquals(expected.size(), rows.size(), run.describe());
      assertTrue(rows.size() > 10);
      for (int i = 0; i < rows.size(); i++) {
        for (Column<io.pgbloat.rows.RelationReport> column : RelationColumns.ALL) {
          String text = expected.get(i).get(column.name());
          Object want = text == null || text.isEmpty() ? null : column.type().parse(text);
          Object got = rows.get(i).getAs(column.name());
          if (column.type() == Column.Type.TEXT && want == null) {
            want = ""; // the CSV writes an empty text as an empty cell
          }
          assertEquals(want, got, flags + " row " + i + " column " + column.name());
        }
      }
    }
  }

  @Test
  void indexLevelEqualsTheCommandLinesIndexReport() {
    List<Row> rows = read(Map.of("level", "indexes", "sampleBlocks", "3", "seed", "4")).collectAsList();
    List<Map<String, String>> expected = Csv.parseWithHeader(cliIndexes);
    assertEquals(expected.size(), rows.size());
    assertTrue(rows.size() > 100, "btree indexes: " + rows.size());
    for (int i = 0; i < rows.size(); i++) {
      for (io.pgbloat.report.Column<io.pgbloat.rows.IndexReport> column : io.pgbloat.report.IndexColumns.ALL) {
        String text = expected.get(i).get(column.name());
        Object want = text.isEmpty() && column.type() != Column.Type.TEXT ? null : column.type().parse(text);
        assertEquals(want, rows.get(i).getAs(column.name()), "index row " + i + " column " + column.name());
      }
    }
  }

  @Test
  void totalsLevelEqualsTheCommandLinesTotals() {
    List<Row> rows = read(Map.of("level", "totals", "sampleBlocks", "3", "seed", "4")).collectAsList();
    List<Map<String, String>> expected = Csv.parseWithHeader(cliTotals);
    assertEquals(expected.size(), rows.size());
    assertTrue(rows.stream().anyMatch(r -> r.<String>getAs("relname").equals("orders") && r.<Long>getAs("indexes") > 0),
        "orders with its indexes");
    for (int i = 0; i < rows.size(); i++) {
      for (io.pgbloat.report.Column<io.pgbloat.rows.TableTotal> column : io.pgbloat.report.TotalColumns.ALL) {
        String text = expected.get(i).get(column.name());
        Object want = text.isEmpty() ? null : column.type().parse(text);
        Object got = rows.get(i).getAs(column.name());
        if (column.type() == Column.Type.TEXT && "".equals(got)) {
          got = null; // the CSV writes an empty text as an empty cell
        }
        assertEquals(want, got, "total " + i + " column " + column.name());
      }
    }
  }

  /** A PostgreSQL 17 directory (database app in LATIN1): the full-scan report is that server's pgstattuple. */
  @Test
  void postgres17ReportEqualsItsPgstattuple() {
    VersionSample sample = new VersionSample(17);
    Dataset<Row> report = spark.read().format("pgbloat").option("fullScan", "true").load(sample.dataDir().toString());
    List<Map<String, String>> truth = sample.pgstattuple();
    Map<String, Row> rows = new HashMap<>();
    for (Row r : report.collectAsList()) {
      rows.put(r.<String>getAs("database") + ":" + r.getAs("schema") + "." + r.getAs("relname"), r);
    }
    assertEquals(truth.size(), rows.size());
    for (Map<String, String> want : truth) {
      String key = want.get("database") + ":" + want.get("schema") + "." + want.get("relname");
      Row got = rows.get(key);
      assertTrue(got != null, key + " in the data source's report");
      for (String column : List.of("table_len", "tuple_count", "tuple_len", "dead_tuple_count", "dead_tuple_len",
          "free_space")) {
        assertEquals(Long.parseLong(want.get(column)), got.<Long>getAs(column), key + " " + column);
      }
    }
  }

  /** Of the sample, and of its compressed backup (whose report's pages are counted as it is indexed). */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void pageViewSumsEqualTheFullScanReport(boolean backup) {
    String from = backup ? SampleData.compressedTarBackup().toString() : dataDir;
    Map<String, Row> report = new HashMap<>();
    for (Row r : read(Map.of("fullScan", "true"), from).collectAsList()) {
      report.put(r.<String>getAs("database") + "." + r.getAs("schema") + "." + r.getAs("relname"), r);
    }
    List<Row> sums = read(Map.of("fullScan", "true", "level", "pages"), from).groupBy("database", "schema", "relname")
        .agg(Map.of("block", "count", "tuple_count", "sum", "tuple_len", "sum", "dead_tuple_count", "sum",
            "dead_tuple_len", "sum", "free_space", "sum"))
        .collectAsList();
    assertFalse(sums.isEmpty());
    int relationsWithPages = 0;
    for (Row s : sums) {
      String key = s.<String>getAs("database") + "." + s.getAs("schema") + "." + s.getAs("relname");
      Row r = report.get(key);
      assertTrue(r != null, key);
      assertEquals(r.<Long>getAs("blocks"), s.<Long>getAs("count(block)"), key);
      for (String m : List.of("tuple_count", "tuple_len", "dead_tuple_count", "dead_tuple_len", "free_space")) {
        assertEquals(r.<Long>getAs(m), s.<Long>getAs("sum(" + m + ")"), key + " " + m);
      }
      relationsWithPages++;
    }
    long nonEmpty = report.values().stream().filter(r -> r.<Long>getAs("blocks") > 0).count();
    assertEquals(nonEmpty, relationsWithPages);
  }

  @Test
  void sampledPageViewReadsTheReportsBlocks() {
    Map<String, String> options = Map.of("sampleBlocks", "4", "seed", "3");
    long sampled = read(options).agg(Map.of("sampled_blocks", "sum")).first().getLong(0);
    Map<String, String> pages = new HashMap<>(options);
    pages.put("level", "pages");
    Dataset<Row> view = read(pages);
    assertEquals(sampled, view.count());
    assertEquals(sampled, view.select("database", "schema", "relname", "block").distinct().count());
    assertEquals(0, view.where("bad_page_reason IS NOT NULL").count());
  }

  @Test
  void filtersSelectByKindAndSize() {
    List<Row> rows = read(Map.of("relkind", "t", "minSize", "16kB")).collectAsList();
    assertFalse(rows.isEmpty());
    for (Row r : rows) {
      assertEquals("t", r.getAs("relkind"));
      assertTrue(r.<Long>getAs("table_len") >= 16384, r.toString());
    }
  }

  @Test
  void badOptionsFailWithOneLineNamingThem() {
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> read(Map.of("sampleBlock", "5")).collectAsList());
    assertTrue(unknown.getMessage().toLowerCase(java.util.Locale.ROOT).contains("unknown option 'sampleblock'"), unknown.getMessage());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> read(Map.of("sampleBlocks", "many")).collectAsList());
    assertTrue(bad.getMessage().contains("sampleBlocks needs a whole number"), bad.getMessage());
    IllegalArgumentException both = assertThrows(IllegalArgumentException.class,
        () -> read(Map.of("sampleBlocks", "5", "fullScan", "true")).collectAsList());
    assertTrue(both.getMessage().contains("cannot be combined"), both.getMessage());
  }

  private static String[] concat(List<String> a, List<String> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toArray(String[]::new);
  }
}
