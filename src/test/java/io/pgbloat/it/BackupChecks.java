package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.testing.ToolRun;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** What the backup tests ask of a run of the tool on a backup. */
final class BackupChecks {
  private BackupChecks() {}

  /** The bytes a 20-block sample (seed 3) of {@code dataDir} reads, as --metrics-out (to {@code metrics}) says. */
  static long sampledBytes(String dataDir, Path metrics) throws IOException {
    ToolRun run = ToolRun.of("analyze", "--data-dir", dataDir, "--sample-blocks", "20", "--seed", "3",
        "--format", "csv", "--master", "local[2]", "--metrics-out", metrics.toString());
    assertEquals(0, run.status(), run.describe());
    return SamplingRunsTest.metric(metrics, "bytes_read");
  }

  /** A full scan of {@code dataDir} exits 1 with one line holding {@code names} and {@code says}, no stack trace. */
  static void expectOneLine(String dataDir, String names, String says) {
    ToolRun run = ToolRun.of("analyze", "--data-dir", dataDir, "--full-scan", "--master", "local[1]");
    assertEquals(1, run.status(), run.describe());
    List<String> lines = run.err().lines().filter(l -> l.startsWith("pgbloat: ")).toList();
    assertEquals(1, lines.size(), run.err());
    assertTrue(lines.get(0).contains(names) && lines.get(0).contains(says), run.err());
    assertFalse(run.err().contains("\tat "), "no stack trace: " + run.err());
  }
}
