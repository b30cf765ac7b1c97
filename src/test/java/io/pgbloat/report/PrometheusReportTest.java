package io.pgbloat.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.rows.RelationReport;
import io.pgbloat.testing.Requirement;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Prometheus output read back by Prometheus itself (Debian's {@code prometheus} package,
 * which {@code .ci/run} installs): {@code promtool check metrics} parses it and lints the names
 * against Prometheus' conventions, and {@code promtool tsdb create-blocks-from openmetrics}
 * stores it, so that {@code promtool tsdb dump} gives back every series with its labels as
 * Prometheus' parser read them: hostile relation and database names must come back unchanged.
 */
class PrometheusReportTest {
  private static final long TIMESTAMP = 1_700_000_000L;

  @TempDir Path dir;

  /** The hostile rows but those with a lone surrogate, which no encoding (and no PostgreSQL name) can hold. */
  private static List<RelationReport> rows() {
    return HtmlReportSamples.hostileRows().stream()
        .filter(r -> StandardCharsets.UTF_8.newEncoder().canEncode(r.relation().name()))
        .toList();
  }

  private static String render(List<RelationReport> rows) {
    StringWriter s = new StringWriter();
    try (PrintWriter out = new PrintWriter(s)) {
      new PrometheusReport(Instant.ofEpochSecond(TIMESTAMP), 12.5).write(rows, out);
    }
    return s.toString();
  }

  @Test
  void promtoolParsesAndLintsTheOutput() throws Exception {
    Path file = dir.resolve("pgbloat.prom");
    Files.writeString(file, render(rows()));
    Run check = promtool(file.toFile(), "check", "metrics");
    assertEquals(0, check.status(), check.output());
    assertEquals("", check.output().strip(), "lint findings");
  }

  @Test
  void hostileNamesComeBackFromPrometheusUnchanged() throws Exception {
    List<RelationReport> rows = rows();
    String text = render(rows);
    // OpenMetrics backfill needs a timestamp on every sample, and an end marker
    StringBuilder timed = new StringBuilder();
    for (String line : text.split("\n")) {
      timed.append(line.startsWith("#") ? line : line + " " + TIMESTAMP).append('\n');
    }
    timed.append("# EOF\n");
    Path input = dir.resolve("timed.prom");
    Files.writeString(input, timed);
    Path db = dir.resolve("tsdb");
    Run create = promtool(null, "tsdb", "create-blocks-from", "openmetrics", input.toString(), db.toString());
    assertEquals(0, create.status(), create.output());
    Files.createDirectories(db.resolve("wal")); // dump opens the head's WAL too
    Run dump = promtool(null, "tsdb", "dump", "--match={__name__=\"pgbloat_free_bytes\"}", db.toString());
    assertEquals(0, dump.status(), dump.output());

    Map<String, Double> freeByName = new HashMap<>();
    for (String line : dump.output().split("\n")) {
      if (line.startsWith("{")) {
        Map<String, String> labels = labels(line.substring(0, line.lastIndexOf('}') + 1));
        String[] tail = line.substring(line.lastIndexOf('}') + 1).trim().split(" ");
        // Prometheus takes an empty label value for no label at all
        freeByName.put(labels.getOrDefault("database", "") + "|" + labels.get("schema") + "|" + labels.get("relation")
            + "|" + labels.getOrDefault("toast_of", ""), Double.parseDouble(tail[0]));
      }
    }
    assertEquals(rows.size(), freeByName.size(), dump.output());
    for (RelationReport r : rows) {
      String key = r.relation().database() + "|" + r.relation().schema() + "|" + r.relation().name() + "|"
          + r.relation().toastOf();
      assertTrue(freeByName.containsKey(key), "not given back as written: " + key + " in " + freeByName.keySet());
      assertEquals(r.figures().freeSpace().value(), freeByName.get(key), 1e-6, key);
    }
  }

  @Test
  void everyRowHasOneActionSeries() {
    List<RelationReport> rows = rows();
    String text = render(rows);
    assertEquals(rows.size(), text.lines().filter(l -> l.startsWith("pgbloat_action{")).count());
    for (RelationReport r : rows) {
      assertTrue(text.contains(",action=\"" + r.advice().action().label() + "\"} 1\n"), r.relation().name());
    }
  }

  @Test
  void labelValuesEscapeBackslashQuoteAndNewlineOnly() {
    assertEquals("back\\\\slash \\\"q\\\" new\\nline 🐘\t", PrometheusReport.escape("back\\slash \"q\" new\nline 🐘\t"));
  }

  /** The labels of a series as {@code promtool tsdb dump} prints them: Go-quoted values. */
  private static Map<String, String> labels(String braces) {
    Map<String, String> labels = new HashMap<>();
    Matcher m = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(braces);
    while (m.find()) {
      labels.put(m.group(1), goUnquote(m.group(2)));
    }
    return labels;
  }

  /** Go's strconv.Quote undone: \\a \\b \\f \\n \\r \\t \\v \\\\ \\" \\xNN \\uNNNN \\UNNNNNNNN. */
  private static String goUnquote(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\') {
        b.append(c);
        continue;
      }
      char e = s.charAt(++i);
      switch (e) {
        case 'a' -> b.append('\u0007');
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'n' -> b.append('\n');
        case 'r' -> b.append('\r');
        case 't' -> b.append('\t');
        case 'v' -> b.append('\u000b');
        case 'x' -> {
          b.append((char) Integer.parseInt(s.substring(i + 1, i + 3), 16));
          i += 2;
        }
        case 'u' -> {
          b.appendCodePoint(Integer.parseInt(s.substring(i + 1, i + 5), 16));
          i += 4;
        }
        case 'U' -> {
          b.appendCodePoint(Integer.parseInt(s.substring(i + 1, i + 9), 16));
          i += 8;
        }
        default -> b.append(e);
      }
    }
    return b.toString();
  }

  private record Run(int status, String output) {}

  private static Run promtool(File stdin, String... args) throws IOException, InterruptedException {
    Requirement.require(onPath("promtool") ? "" : "promtool is not installed: apt-get install -y prometheus");
    List<String> command = new ArrayList<>(List.of("promtool"));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    if (stdin != null) {
      pb.redirectInput(stdin);
    }
    Process p = pb.start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "promtool did not finish");
    return new Run(p.exitValue(), output);
  }

  private static boolean onPath(String program) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (Files.isExecutable(Path.of(d, program))) {
        return true;
      }
    }
    return false;
  }
}
