package io.pgbloat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.testing.SampleData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Wrong command lines and wrong directories: one line naming the problem (plus a usage hint
 * for usage errors), the right exit status, no stack trace. None of these starts Spark.
 */
class MainErrorsTest {
  @TempDir Path temp;

  private record Outcome(int status, String out, String err) {}

  private static Outcome run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(args, new PrintStream(out, true), new PrintStream(err, true));
    return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** Exit status 2, the first line names the problem, the second is the usage hint. */
  private static void assertUsageError(Outcome o, String expectedStart) {
    assertEquals(2, o.status(), o.err());
    String[] lines = o.err().split("\n");
    assertEquals(2, lines.length, o.err());
    assertTrue(lines[0].startsWith("pgbloat: " + expectedStart), o.err());
    assertEquals("Try 'submit.sh --help' for the options.", lines[1]);
    assertEquals("", o.out());
  }

  @Test
  void noArgumentsIsAUsageError() {
    assertUsageError(run(), "no command given");
  }

  @Test
  void unknownCommand() {
    assertUsageError(run("analyse", "--data-dir", "x"), "unknown command 'analyse'");
  }

  @Test
  void unknownOption() {
    assertUsageError(run("analyze", "--data-dir", "x", "--sample-everything"), "unknown option '--sample-everything'");
  }

  @Test
  void optionWithoutValue() {
    assertUsageError(run("analyze", "--data-dir"), "--data-dir needs a value");
  }

  @Test
  void unknownFormat() {
    assertUsageError(run("analyze", "--data-dir", "x", "--format", "xml"), "--format needs one of table, csv, json, html, prometheus or parquet, not 'xml'");
  }

  @Test
  void missingDataDir() {
    assertUsageError(run("analyze", "--full-scan"), "--data-dir is required");
  }

  @Test
  void helpPrintsUsageAndSucceeds() {
    Outcome o = run("analyze", "--help");
    assertEquals(0, o.status());
    assertTrue(o.out().startsWith("usage: submit.sh analyze --data-dir PATH"), o.out());
  }

  @Test
  void nonExistentDirectory() {
    assertUsageError(run("analyze", "--data-dir", temp.resolve("nope").toString()), "Cannot read data directory");
  }

  @Test
  void directoryThatIsNotADataDirectory() {
    Outcome o = run("analyze", "--data-dir", temp.toString());
    assertUsageError(o, "Cannot read data directory");
    assertTrue(o.err().contains("no PG_VERSION file"), o.err());
  }

  @Test
  void unknownUriScheme() {
    assertUsageError(run("analyze", "--data-dir", "nosuchfs://host/pgdata"), "Cannot open data directory");
  }

  /**
   * An object store whose connector is not on the class path: the one line names the package that
   * serves it. The tests' class path holds S3A (for the S3 tests), so its class is named as one
   * that is not there, as Hadoop's defaults name it where the connector is missing.
   */
  @ParameterizedTest
  @CsvSource({"s3a://bucket/pgdata, s3a, org.apache.hadoop:hadoop-aws:3.",
      "gs://bucket/pgdata, gs, com.google.cloud.bigdataoss:gcs-connector",
      "abfss://container@account.dfs.core.windows.net/pgdata, abfss, org.apache.hadoop:hadoop-azure:3.",
      "pgbackrest:s3a://bucket/repo?stanza=main, s3a, org.apache.hadoop:hadoop-aws:3."})
  void objectStoreWithoutItsConnectorNamesThePackageToAdd(String dataDir, String scheme, String artifact) {
    Outcome o = run("analyze", "--data-dir", dataDir,
        "--conf", "spark.hadoop.fs." + scheme + ".impl=org.example.absent.ConnectorFileSystem");
    assertUsageError(o, "Cannot open data directory");
    assertTrue(o.err().contains("its connector is not on the class path; add it (spark-submit --packages " + artifact),
        o.err());
  }

  @ParameterizedTest
  @ValueSource(strings = {"9.6", "12", "19", "20"})
  void unsupportedVersionIsADataError(String version) throws IOException {
    Files.writeString(temp.resolve("PG_VERSION"), version + "\n");
    Outcome o = run("analyze", "--data-dir", temp.toString());
    assertEquals(1, o.status());
    assertEquals("pgbloat: Cannot read data directory " + temp + ": it is PostgreSQL " + version
        + ", and this tool reads PostgreSQL 13, 14, 15, 16, 17 and 18\n", o.err());
  }

  @Test
  void controlFileOfAnotherVersionIsADataError() throws IOException {
    // a PostgreSQL 15 directory that says it is 17: pg_control_version 1300, not 17's 1700
    SampleData.copyTo(temp.resolve("pgdata"));
    Files.writeString(temp.resolve("pgdata/PG_VERSION"), "17\n");
    Outcome o = run("analyze", "--data-dir", temp.resolve("pgdata").toString());
    assertEquals(1, o.status());
    assertEquals("pgbloat: Cannot read global/pg_control: pg_control_version is 1300 where PostgreSQL 17 (as "
        + "PG_VERSION says) writes 1700; PG_VERSION and pg_control disagree, so this is not a data directory of "
        + "one version\n", o.err());
  }

  @Test
  void unknownDatabase() {
    Outcome o = run("analyze", "--data-dir", SampleData.dataDir().toString(), "--database", "nosuch");
    assertUsageError(o, "Cannot analyze database nosuch: no such database");
    assertTrue(o.err().contains("its databases are postgres, shop"), o.err());
  }

  @Test
  void tablePatternMatchingNothing() {
    assertUsageError(run("analyze", "--data-dir", SampleData.dataDir().toString(), "--table", "nowhere.*"),
        "Cannot analyze: no table matches nowhere.*");
  }

  @Test
  void unwritableOutput() {
    assertUsageError(run("analyze", "--data-dir", SampleData.dataDir().toString(), "--output",
        temp.resolve("no/such/dir/report.csv").toString()), "cannot write --output");
  }

  @Test
  void debugShowsTheStackTrace() {
    Outcome o = run("analyze", "--data-dir", temp.resolve("nope").toString(), "--debug");
    assertEquals(2, o.status());
    assertTrue(o.err().contains("\tat io.pgbloat."), o.err());
    assertFalse(run("analyze", "--data-dir", temp.resolve("nope").toString()).err().contains("\tat "));
  }

  @Test
  void conflictingSampleModes() {
    assertUsageError(run("analyze", "--data-dir", "x", "--full-scan", "--sample-blocks", "10"),
        "--full-scan and --sample-blocks cannot be combined");
  }

  @Test
  void badSampleNumbers() {
    assertUsageError(run("analyze", "--data-dir", "x", "--sample-blocks", "0"),
        "--sample-blocks needs a whole number of blocks, at least 1, not '0'");
    assertUsageError(run("analyze", "--data-dir", "x", "--sample-blocks", "many"),
        "--sample-blocks needs a whole number of blocks, at least 1, not 'many'");
    assertUsageError(run("analyze", "--data-dir", "x", "--sample-percent", "120"),
        "--sample-percent needs a percentage above 0, at most 100, not '120'");
    assertUsageError(run("analyze", "--data-dir", "x", "--target-rse", "-0.1"),
        "--target-rse needs a fraction above 0 and below 1, e.g. 0.02, not '-0.1'");
    assertUsageError(run("analyze", "--data-dir", "x", "--seed", "1.5"), "--seed needs a whole number, not '1.5'");
  }

  @Test
  void badIoSettings() {
    assertUsageError(run("analyze", "--data-dir", "x", "--io-concurrency", "0"),
        "--io-concurrency needs a whole number from 1 to 256, not '0'");
    assertUsageError(run("analyze", "--data-dir", "x", "--io-combine-limit", "1000"),
        "--io-combine-limit needs a whole number from 1 to 256, not '1000'");
  }

  @Test
  void directIoOnHdfsIsRefused() {
    assertUsageError(run("analyze", "--data-dir", "nosuchfs://host/pgdata", "--direct-io"),
        "Cannot open data directory");
  }

  @Test
  void badFiltersAndOutputs() {
    assertUsageError(run("analyze", "--data-dir", "x", "--relkind", "r,x"),
        "--relkind needs kinds among r (table), t (TOAST table), m (materialized view), i (index), p (partitioned table), "
            + "I (partitioned index), comma-separated, not 'r,x'");
    assertUsageError(run("analyze", "--data-dir", "x", "--relkind", "i"), "--relkind i and I select indexes; add --indexes");
    assertUsageError(run("analyze", "--data-dir", "x", "--totals", "--format", "csv"),
        "--totals with --format csv needs --totals-output FILE for the totals");
    assertUsageError(run("analyze", "--data-dir", "x", "--totals-output", "t.csv"),
        "--totals-output is for the totals; add --totals");
    assertUsageError(run("analyze", "--data-dir", "x", "--min-size", "ten"),
        "--min-size needs a size such as 8192, 64kB, 10MB or 1GB, not 'ten'");
    assertUsageError(run("analyze", "--data-dir", "x", "--min-size", "-1MB"),
        "--min-size needs a size such as 8192, 64kB, 10MB or 1GB, not '-1MB'");
    assertUsageError(run("analyze", "--data-dir", "x", "--format", "parquet"),
        "--format parquet needs --output DIR");
    assertUsageError(run("analyze", "--data-dir", "x", "--quiet=yes"), "--quiet takes no value");
  }

  @Test
  void filtersThatLeaveNothingStillReport() {
    Outcome o = run("analyze", "--data-dir", SampleData.dataDir().toString(), "--min-size", "1TB", "--format", "csv",
        "--master", "local[1]");
    assertEquals(0, o.status(), o.err());
    assertEquals(1, o.out().lines().count(), "only the header: " + o.out());
  }
}
