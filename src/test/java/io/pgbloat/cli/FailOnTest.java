package io.pgbloat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.testing.Csv;
import io.pgbloat.testing.SampleData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --fail-on: its own exit status (3; 0 when no condition holds, 1 for bad data then, 2 for a
 * wrong condition), each relation that meets a condition named on one line.
 */
class FailOnTest {
  private record Run(int status, String out, String err) {}

  private static Run run(String... extra) {
    return runOn(SampleData.dataDir(), extra);
  }

  private static Run runOn(Path dataDir, String... extra) {
    List<String> args = new ArrayList<>(List.of("analyze", "--data-dir", dataDir.toString(),
        "--database", "shop", "--format", "csv", "--master", "local[1]"));
    args.addAll(List.of(extra));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(args.toArray(String[]::new), new PrintStream(out, true), new PrintStream(err, true));
    return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aConditionThatHoldsExitsThreeNamingExactlyTheRelationsThatMeetIt() {
    Run r = run("--full-scan", "--fail-on", "dead_tuple_len>=64kB");
    assertEquals(Main.EXIT_ALERT, r.status(), r.err());
    long meeting = Csv.parseWithHeader(r.out()).stream()
        .filter(row -> Long.parseLong(row.get("dead_tuple_len")) >= 65536).count();
    List<String> alerts = r.err().lines().filter(l -> l.startsWith("pgbloat: alert: ")).toList();
    assertTrue(meeting > 0, "the sample has tables with 64 kB of dead tuples");
    assertEquals(meeting, alerts.size(), r.err());
    for (Map<String, String> row : Csv.parseWithHeader(r.out())) {
      if (Long.parseLong(row.get("dead_tuple_len")) >= 65536) {
        String name = row.get("schema") + "." + row.get("relname");
        assertTrue(alerts.stream().anyMatch(a -> a.contains(name + (row.get("toast_of").isEmpty() ? ":" : " (TOAST"))
            && a.contains("dead_tuple_len " + row.get("dead_tuple_len") + " meets dead_tuple_len>=64kB")), name);
      }
    }
    assertTrue(r.err().contains("alert(s): a --fail-on condition holds (exit status 3)"), r.err());
  }

  @Test
  void aConditionNoRelationMeetsLeavesTheStatusZero() {
    Run r = run("--full-scan", "--fail-on", "free_percent>100", "--fail-on", "tuple_count<0");
    assertEquals(Main.EXIT_OK, r.status(), r.err());
    assertTrue(r.err().lines().noneMatch(l -> l.startsWith("pgbloat: alert")), r.err());
  }

  @Test
  void aSampledFigureIsNamedWithItsInterval() {
    Run r = run("--sample-blocks", "2", "--fail-on", "tuple_count>=0");
    assertEquals(Main.EXIT_ALERT, r.status(), r.err());
    assertTrue(r.err().lines().anyMatch(l -> l.startsWith("pgbloat: alert: ") && l.contains("(95 % interval ")),
        r.err());
  }

  /**
   * Bad data beside alerts: with no condition met the status is bad data's (1); with one met it
   * is the alert's (3), the bad page still listed.
   */
  @Test
  void badDataKeepsItsStatusUnlessAConditionHolds(@TempDir Path temp) throws IOException {
    Path dir = SampleData.copyTo(temp.resolve("pgdata"));
    Map<String, String> orders = Csv.parseWithHeader(run("--full-scan").out()).stream()
        .filter(row -> row.get("relname").equals("orders")).findFirst().orElseThrow();
    try (FileChannel file = FileChannel.open(dir.resolve(orders.get("relpath")), StandardOpenOption.WRITE)) {
      byte[] garbage = new byte[8192];
      Arrays.fill(garbage, (byte) 0xFF);
      file.write(ByteBuffer.wrap(garbage), 8192); // block 1: no page header holds
    }
    Run quiet = runOn(dir, "--full-scan", "--fail-on", "free_percent>100");
    assertEquals(Main.EXIT_DATA, quiet.status(), quiet.err());
    assertTrue(quiet.err().contains("public.orders") && quiet.err().lines().noneMatch(l -> l.startsWith("pgbloat: alert")),
        quiet.err());
    Run alert = runOn(dir, "--full-scan", "--fail-on", "bad_pages>0");
    assertEquals(Main.EXIT_ALERT, alert.status(), alert.err());
    assertTrue(alert.err().lines().anyMatch(l -> l.startsWith("pgbloat: alert: ") && l.contains("public.orders")
        && l.contains("bad_pages 1 meets bad_pages>0")), alert.err());
    assertTrue(alert.err().lines().anyMatch(l -> !l.startsWith("pgbloat: alert") && l.contains("public.orders")
        && l.contains("block 1")), "the bad page is still listed: " + alert.err());
  }

  @Test
  void aWrongConditionIsAUsageErrorOfOneLine() {
    for (String wrong : List.of("reclaimable_percent=30", "nosuch>3", "relname>3", "free_space>lots",
        "dead_tuple_len>=30d", "reclaimable_percent>30MB", "dead_tuple_len>1.5GB")) {
      Run r = run("--fail-on", wrong);
      assertEquals(Main.EXIT_USAGE, r.status(), wrong + ": " + r.err());
      assertTrue(r.err().startsWith("pgbloat: --fail-on: "), r.err());
      assertEquals(2, r.err().lines().count(), "one line and the hint: " + r.err());
    }
  }
}
