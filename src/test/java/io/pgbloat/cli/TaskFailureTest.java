package io.pgbloat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.testing.FailingFirstAttemptFileSystem;
import io.pgbloat.testing.SampleData;
import io.pgbloat.testing.ToolRun;
import org.junit.jupiter.api.Test;

/**
 * Tasks that die on their first attempt (every even partition, by an injected Error while
 * opening a relation file) are retried by Spark; the report is byte-identical to a clean run.
 */
class TaskFailureTest {
  @Test
  void failedFirstAttemptsChangeNothing() {
    String dir = SampleData.dataDir().toAbsolutePath().toString();
    // local[2,4]: two cores, a task may fail up to 4 times (plain local mode never retries)
    String[] common = {"analyze", "--format", "csv", "--sample-blocks", "20", "--seed", "9", "--master", "local[2,4]",
        "--io-concurrency", "1"};
    ToolRun clean = ToolRun.of(with(common, "--data-dir", dir));
    int before = FailingFirstAttemptFileSystem.INJECTED.get();
    ToolRun faulty = ToolRun.of(with(common, "--data-dir", FailingFirstAttemptFileSystem.SCHEME + "://" + dir,
        "--quiet"));
    assertEquals(0, clean.status(), clean.describe());
    assertEquals(0, faulty.status(), faulty.describe());
    assertTrue(clean.out().lines().count() > 100);
    assertTrue(FailingFirstAttemptFileSystem.INJECTED.get() - before >= 1, "first attempts killed: "
        + (FailingFirstAttemptFileSystem.INJECTED.get() - before));
    assertEquals(clean.out(), faulty.out());
  }

  private static String[] with(String[] common, String... more) {
    return java.util.stream.Stream.concat(java.util.Arrays.stream(common), java.util.Arrays.stream(more))
        .toArray(String[]::new);
  }
}
