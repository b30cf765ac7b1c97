package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.pgbloat.testing.ToolRun;
import io.pgbloat.testing.VersionSample;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The reports of the shipped samples, byte for byte as recorded under
 * {@code src/test/resources/outputs}: a change to the code that is not meant to change what the
 * tool prints must leave every relation, index and total report of every sample, in every
 * format, as it was. The only text masked is the HTML report's run time.
 *
 * <p>A change that is meant to alter the output re-records them with
 * {@code -Doutputs.record=true}; the diff of the recorded files is then the change to review.
 */
class ReportOutputsUnchangedTest {
  private static final Path RECORDED = Path.of("src", "test", "resources", "outputs");
  private static final boolean RECORD = Boolean.getBoolean("outputs.record");
  private static final List<String> FORMATS = List.of("csv", "json", "html");
  /** The HTML report's one line that differs from run to run. */
  private static final Pattern RUN_TIME = Pattern.compile("<dt>run</dt><dd>[^<]*</dd>");

  /** A sample data directory and how it is analyzed. */
  record Case(String name, String dataDir, List<String> mode) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> cases() {
    List<Case> cases = new ArrayList<>();
    cases.add(new Case("pg15", "sample/pgdata", List.of("--full-scan")));
    cases.add(new Case("pg15-sampled", "sample/pgdata", List.of("--sample-blocks", "3", "--seed", "7")));
    for (int major : VersionSample.MAJORS) {
      cases.add(new Case("pg" + major, "sample/versions/pg" + major + "/pgdata", List.of("--full-scan")));
    }
    return cases.stream().flatMap(c -> FORMATS.stream().map(format -> Arguments.of(c, format)));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void reportsAreAsRecorded(Case sample, String format, @TempDir Path out) throws IOException {
    List<String> args = new ArrayList<>(List.of("analyze", "--data-dir", sample.dataDir(), "--indexes", "--totals",
        "--format", format, "--master", "local[2]", "--quiet"));
    args.addAll(sample.mode());
    List<String> reports = List.of("relations", "indexes", "totals");
    List<String> outputFlags = List.of("--output", "--index-output", "--totals-output");
    for (int i = 0; i < reports.size(); i++) {
      args.add(outputFlags.get(i));
      args.add(out.resolve(reports.get(i) + "." + format).toString());
    }
    ToolRun run = ToolRun.of(args.toArray(String[]::new));
    assertEquals(0, run.status(), run.describe());

    List<String> changed = new ArrayList<>();
    for (String report : reports) {
      String name = sample.name() + "-" + report + "." + format;
      String actual = masked(Files.readString(out.resolve(report + "." + format), StandardCharsets.UTF_8));
      Path recorded = RECORDED.resolve(name + ".gz");
      if (RECORD) {
        write(recorded, actual);
      } else if (!actual.equals(read(recorded))) {
        changed.add(name + ": " + firstDifference(read(recorded), actual));
      }
    }
    if (!changed.isEmpty()) {
      fail("reports differ from those recorded in " + RECORDED + ":\n" + String.join("\n", changed));
    }
  }

  private static String masked(String report) {
    return RUN_TIME.matcher(report).replaceAll("<dt>run</dt><dd>(run time)</dd>");
  }

  private static String firstDifference(String recorded, String actual) {
    String[] was = recorded.split("\n", -1);
    String[] is = actual.split("\n", -1);
    for (int line = 0; line < Math.max(was.length, is.length); line++) {
      String a = line < was.length ? was[line] : "(no line)";
      String b = line < is.length ? is[line] : "(no line)";
      if (!a.equals(b)) {
        return "line " + (line + 1) + " was\n    " + a + "\n  is\n    " + b;
      }
    }
    return "(same lines)";
  }

  private static String read(Path recorded) throws IOException {
    if (!Files.exists(recorded)) {
      return "";
    }
    try (InputStream in = new GZIPInputStream(Files.newInputStream(recorded))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static void write(Path recorded, String report) throws IOException {
    Files.createDirectories(recorded.getParent());
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(recorded))) {
      out.write(report.getBytes(StandardCharsets.UTF_8));
    }
  }
}
