package io.pgbloat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.testing.SampleData;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --metrics-textfile: the Prometheus report beside the main one, whole or not at all. */
class MetricsTextfileTest {
  private static int run(ByteArrayOutputStream out, ByteArrayOutputStream err, String... args) {
    return Main.run(args, new PrintStream(out, true), new PrintStream(err, true));
  }

  @Test
  void theTextfileHoldsEveryTableAndNoTemporaryFileIsLeft(@TempDir Path dir) throws Exception {
    Path textfile = dir.resolve("pgbloat.prom");
    Files.writeString(textfile, "stale"); // a previous run's file is replaced whole
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = run(out, err, "analyze", "--data-dir", SampleData.dataDir().toString(), "--database", "shop",
        "--full-scan", "--format", "csv", "--master", "local[1]", "--metrics-textfile", textfile.toString());
    assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
    String text = Files.readString(textfile);
    long tables = out.toString(StandardCharsets.UTF_8).lines().count() - 1; // the CSV's rows
    long series = text.lines().filter(l -> l.startsWith("pgbloat_table_bytes{")).count();
    assertEquals(tables, series, text);
    assertTrue(text.contains("\npgbloat_run_duration_seconds "), text);
    assertEquals(List.of(textfile), Files.list(dir).toList(), "only the textfile, no temporary file beside it");
  }

  @Test
  void anUnwritableDirectoryIsOneLineBeforeAnyWork() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = run(out, err, "analyze", "--data-dir", SampleData.dataDir().toString(), "--metrics-textfile",
        "/nonexistent-dir/pgbloat.prom");
    assertEquals(2, status);
    String message = err.toString(StandardCharsets.UTF_8);
    assertTrue(message.startsWith("pgbloat: cannot write --metrics-textfile /nonexistent-dir/pgbloat.prom: "), message);
    assertTrue(!message.contains("\tat "), "no stack trace: " + message);
  }
}
