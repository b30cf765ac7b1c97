package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.cli.Main;
import io.pgbloat.testing.SampleData;
import io.pgbloat.testing.ToolRun;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The shipped sample data directory, analyzed with no server: every column of every relation
 * equals what pgstattuple said on the server that made it. The sample was copied before any
 * truth scan, so most of its tuples have no hint bits and pg_xact/pg_multixact decide.
 */
class SampleDataDirectoryTest {

  @Test
  void fullScanEqualsPgstattupleOnEveryRelation() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(new String[] {"analyze", "--data-dir", SampleData.dataDir().toString(), "--full-scan",
        "--format", "csv", "--master", "local[2]"}, new PrintStream(out, true), new PrintStream(err, true));
    String stderr = err.toString(StandardCharsets.UTF_8);
    assertEquals(0, status, stderr);
    assertEquals("", stderr);
    List<String> differences = Report.differences(SampleData.pgstattuple(), out.toString(StandardCharsets.UTF_8));
    assertTrue(differences.isEmpty(), () -> String.join("\n", differences));
  }

  /**
   * The sample's compressed tar backup, streamed with no server: its full scan is the sample's
   * truth, and a sample of it reads the very blocks a sample of the directory reads (the same
   * report, byte for byte), though every block is decoded.
   */
  @Test
  void itsCompressedBackupStreamedGivesTheSameAnswers() {
    assertSameAnswers(SampleData.compressedTarBackup().toString(), "the backup's archives are compressed, so they are streamed");
  }

  /** The sample's pgBackRest backup (zst, bundled), read in place with no server: the same answers. */
  @Test
  void itsPgBackRestBackupGivesTheSameAnswers() {
    assertSameAnswers(SampleData.pgBackRestBackup(), "the backup's files are compressed (zstd), so each file read is decoded");
  }

  /**
   * The backup's full scan gives the sample's truth, with the warning that says how it is
   * streamed; a sample of it gives the report a sample of the directory gives.
   */
  private static void assertSameAnswers(String backup, String warning) {
    ToolRun full = ToolRun.of("analyze", "--data-dir", backup, "--full-scan", "--format", "csv", "--master", "local[2]");
    assertEquals(0, full.status(), full.describe());
    assertTrue(full.err().contains("pgbloat: warning: " + warning), full.err());
    List<String> differences = Report.differences(SampleData.pgstattuple(), full.out());
    assertTrue(differences.isEmpty(), () -> String.join("\n", differences));
    String[] sampled = {"--sample-blocks", "7", "--seed", "11", "--format", "csv", "--master", "local[2]"};
    assertEquals(run(SampleData.dataDir().toString(), sampled), run(backup, sampled));
  }

  private static String run(String dataDir, String... options) {
    List<String> args = new java.util.ArrayList<>(List.of("analyze", "--data-dir", dataDir));
    args.addAll(List.of(options));
    ToolRun run = ToolRun.of(args.toArray(String[]::new));
    assertEquals(0, run.status(), run.describe());
    return run.out();
  }
}
