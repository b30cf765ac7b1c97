package io.pgbloat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.testing.Csv;
import io.pgbloat.testing.SampleData;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** --fail-on: its own exit status, each relation that meets a condition named on one line. */
class FailOnTest {
  private record Run(int status, String out, String err) {}

  private static Run run(String... extra) {
    List<String> args = new ArrayList<>(List.of("analyze", "--data-dir", SampleData.dataDir().toString(),
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
