package io.pgbloat.cluster;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.io.read.IoSettings;
import io.pgbloat.io.store.StoreSettings;
import io.pgbloat.it.Report;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.spark.AnalysisPlan;
import io.pgbloat.spark.AnalysisPlanner;
import io.pgbloat.spark.AnalyzeOptions;
import io.pgbloat.spark.RangeSizing;
import io.pgbloat.testing.LocalSpark;
import io.pgbloat.testing.RequestCounts;
import io.pgbloat.testing.S3Server;
import io.pgbloat.testing.S3ToolRun;
import io.pgbloat.testing.SampleData;
import io.pgbloat.testing.ToolRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample's copies in a real S3 server (S3Proxy in this JVM), read through Hadoop's S3A
 * connector configured by Spark properties alone ({@code spark.hadoop.fs.s3a.*}, as users set
 * them on EMR or in a notebook): a data directory, a tar directory (plain and gzip) and a
 * pgBackRest repository each give the report their local copy gives, from the command line
 * and from the data source; the plan asks by directory, not by file; bad settings fail in one
 * line; nothing is ever written to the store.
 */
class S3DataDirectoryTest {
  private static final String BUCKET = "pgbloat-samples";

  @TempDir static Path temp;
  private static S3Server s3;
  private static Path plainTar;

  @BeforeAll
  static void startS3AndUploadTheSamples() throws IOException, InterruptedException {
    s3 = S3Server.start(temp.resolve("s3"));
    s3.createBucket(BUCKET);
    s3.upload(SampleData.dataDir(), BUCKET, "pgdata");
    s3.upload(SampleData.compressedTarBackup(), BUCKET, "backup-gzip");
    plainTar = temp.resolve("backup-plain");
    Files.createDirectories(plainTar);
    Process tar = new ProcessBuilder("tar", "-cf", plainTar.resolve("base.tar").toString(), "-C",
        SampleData.dataDir().toString(), ".").inheritIO().start();
    assertEquals(0, tar.waitFor(), "tar of the sample");
    s3.upload(plainTar, BUCKET, "backup-plain");
    s3.upload(Path.of(SampleData.pgBackRestBackup().substring("pgbackrest:".length())), BUCKET, "pgbackrest");
  }

  @AfterAll
  static void stopS3() {
    if (s3 != null) {
      s3.close();
    }
  }

  private static ToolRun run(String dataDir, Map<String, String> hadoop, String... more) {
    List<String> args = new ArrayList<>(List.of("analyze", "--data-dir", dataDir, "--format", "csv",
        "--master", "local[2]"));
    args.addAll(S3ToolRun.confArgs(hadoop));
    args.addAll(List.of(more));
    return ToolRun.of(args.toArray(String[]::new));
  }

  private static String s3a(String prefix) {
    return "s3a://" + BUCKET + "/" + prefix;
  }

  /** The run of {@code remote} prints what the run of {@code local} prints, and writes nothing to the store. */
  private static ToolRun assertSameReport(String local, String remote, String... sampling) {
    ToolRun here = run(local, Map.of(), sampling);
    RequestCounts before = s3.requests();
    ToolRun there = run(remote, s3.hadoopSettings(), sampling);
    RequestCounts asked = s3.requests().since(before);
    assertAll(
        () -> assertEquals(0, here.status(), "local: " + here.describe()),
        () -> assertEquals(0, there.status(), "s3a: " + there.describe()),
        () -> assertTrue(here.out().lines().count() > 100, "the local report has rows:\n" + here.out()),
        () -> assertEquals(here.out(), there.out(), "the report of " + remote + " differs from " + local),
        () -> assertEquals(asked.gets() + asked.heads() + asked.lists(), asked.total(),
            "only reads were asked of the store: " + asked));
    return there;
  }

  @Test
  void aDataDirectoryReadsAsLocally() {
    assertSameReport(SampleData.dataDir().toString(), s3a("pgdata"), "--full-scan");
    assertSameReport(SampleData.dataDir().toString(), s3a("pgdata"), "--sample-blocks", "10", "--seed", "5");
  }

  @Test
  void tarDirectoriesReadAsLocally() {
    assertSameReport(plainTar.toString(), s3a("backup-plain"), "--sample-blocks", "7", "--seed", "11");
    assertSameReport(SampleData.compressedTarBackup().toString(), s3a("backup-gzip"), "--full-scan");
  }

  /** The sample's pgBackRest repository (zst, bundled): its truth, and its local sample. */
  @Test
  void aPgBackRestRepositoryReadsAsLocally() {
    String remote = "pgbackrest:" + s3a("pgbackrest");
    ToolRun full = run(remote, s3.hadoopSettings(), "--full-scan");
    assertEquals(0, full.status(), full.describe());
    assertEquals(List.of(), Report.differences(SampleData.pgstattuple(), full.out()));
    RequestCounts before = s3.requests();
    assertSameReport(SampleData.pgBackRestBackup(), remote, "--sample-blocks", "7", "--seed", "11");
    RequestCounts asked = s3.requests().since(before);
    // the manifest gives every repository file's length: no read asks for one
    assertTrue(asked.heads() <= 2, "objects of the repository asked about one by one: " + asked);
  }

  /**
   * The whole plan (catalog, every relation's files measured, the samples drawn, the locality
   * lookup) lists directories instead of asking for each file: no HEAD at all, a LIST per
   * directory at most, and reads of the catalogs and maps alone.
   */
  @Test
  void planningListsDirectoriesAndAsksNothingPerFile() throws IOException {
    SampleData.Shape sample = SampleData.dataDirShape();
    RequestCounts before = s3.requests();
    AnalysisPlan plan = AnalysisPlanner.plan(new AnalyzeOptions(s3a("pgdata"), RelationFilter.all(),
        SampleSize.blocks(10), 5, IoSettings.defaults()).withStore(new StoreSettings(s3.hadoopSettings())));
    plan.preferredHosts(plan.ranges(plan.samples(), () -> new RangeSizing(2, 1)), false);
    RequestCounts asked = s3.requests().since(before);
    assertTrue(plan.relations().size() > 100, "relations planned: " + plan.relations().size());
    assertAll(
        () -> assertTrue(asked.lists() <= sample.directories(), asked + " for " + sample),
        () -> assertTrue(asked.heads() <= 5, "objects asked about one by one: " + asked),
        () -> assertTrue(asked.total() < sample.files() / 4, asked + " for " + sample));
  }

  /**
   * --metrics-out counts every request the run sent, as the server received them: the plan's, the
   * tasks'; the tasks open their objects with the lengths the plan measured, asking none.
   */
  @Test
  void metricsCountTheRequestsTheStoreReceived() throws IOException {
    Path metrics = temp.resolve("s3-metrics.json");
    RequestCounts before = s3.requests();
    ToolRun sampled = run(s3a("pgdata"), s3.hadoopSettings(), "--sample-blocks", "10", "--seed", "5",
        "--metrics-out", metrics.toString());
    RequestCounts asked = s3.requests().since(before);
    assertEquals(0, sampled.status(), sampled.describe());
    String json = Files.readString(metrics);
    assertAll(
        () -> assertEquals(asked.lists(), metricsField(json, "list_requests"), json + " vs " + asked),
        () -> assertEquals(asked.heads(), metricsField(json, "head_requests"), json + " vs " + asked),
        () -> assertEquals(asked.gets(), metricsField(json, "get_requests"), json + " vs " + asked),
        () -> assertTrue(metricsField(json, "plan_requests") > 0, json),
        () -> assertTrue(metricsField(json, "plan_requests") < asked.total(), "the tasks read too: " + json),
        () -> assertTrue(asked.heads() <= 2, "no object's length asked before a read: " + asked));
  }

  private static long metricsField(String json, String field) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"" + field + "\": (\\d+)").matcher(json);
    assertTrue(m.find(), field + " in " + json);
    return Long.parseLong(m.group(1));
  }

  /** A notebook's session configured with spark.hadoop.* reads the store as the command line does. */
  @Test
  void theDataSourceReadsWithTheSessionsSettings() {
    ToolRun cli = run(s3a("pgdata"), s3.hadoopSettings(), "--full-scan");
    assertEquals(0, cli.status(), cli.describe());
    SparkSession.Builder builder = SparkSession.builder().master("local[2]").appName("s3-data-source")
        .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false");
    s3.hadoopSettings().forEach((key, value) -> builder.config(StoreSettings.SPARK_HADOOP_PREFIX + key, value));
    SparkSession spark = builder.getOrCreate();
    try {
      Dataset<Row> report = spark.read().format("pgbloat").option("fullScan", "true").load(s3a("pgdata"));
      List<Map<String, String>> rows = io.pgbloat.testing.Csv.parseWithHeader(cli.out());
      assertEquals(rows.size(), report.count(), "rows of the data source and of the command line");
      long deadTuples = rows.stream().mapToLong(r -> Long.parseLong(r.get("dead_tuple_count"))).sum();
      assertEquals(deadTuples, report.agg(org.apache.spark.sql.functions.sum("dead_tuple_count")).first().getLong(0));
    } finally {
      LocalSpark.stop(spark);
    }
  }
}
