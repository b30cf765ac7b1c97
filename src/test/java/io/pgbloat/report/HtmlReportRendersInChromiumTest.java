package io.pgbloat.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.io.read.IoSettings;
import io.pgbloat.rows.RelationReport;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.spark.Analysis;
import io.pgbloat.spark.AnalyzeOptions;
import io.pgbloat.spark.BloatAnalyzer;
import io.pgbloat.stats.DeadFractionHistogram;
import io.pgbloat.testing.LocalSpark;
import io.pgbloat.testing.Requirement;
import io.pgbloat.testing.SampleData;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report rendered by a real browser: Debian's headless Chromium, through
 * {@code scripts/render-html.sh}, which fails on a script error or a missing render marker.
 * Skipped only when Chromium is not installed ({@code apt-get install -y chromium}), and never under CI.
 *
 * <p>With {@code -Dpgbloat.screenshot=docs/html-report.png} it also writes the documentation's
 * screenshot: the sample directory's sampled report, top {@value #SCREENSHOT_RELATIONS}
 * relations, so that the charts fit in the window.
 */
class HtmlReportRendersInChromiumTest {
  private static final Path SCRIPT = Path.of("scripts", "render-html.sh");
  /** The PNG file signature (PNG spec, section 5.2). */
  private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  /** A screenshot of a page with tables and charts; a blank 1280×2000 PNG is about 10 kB. */
  private static final long MIN_PNG_BYTES = 40 * 1024;
  /** Rendering takes seconds; a hung browser fails the test instead of the build. */
  private static final long RENDER_TIMEOUT_SECONDS = 300;
  /** Blocks sampled per relation: few enough that the large tables show intervals. */
  private static final long SAMPLE_BLOCKS = 30;
  private static final long SEED = 7;
  private static final int SCREENSHOT_RELATIONS = 10;
  private static final String SAMPLE_DIRECTORY = "sample/pgdata";

  @TempDir Path dir;

  @BeforeEach
  void needsChromium() {
    Requirement.require(onPath("chromium") ? "" : "chromium is not installed: apt-get install -y chromium");
  }

  @Test
  void sampleDirectoryReportRendersWithEveryRelationNameInTheDom() throws Exception {
    String dataDir = SampleData.dataDir().toString();
    Instant started = Instant.now();
    Analysis analysis = BloatAnalyzer.analyzeStandalone(new AnalyzeOptions(dataDir, RelationFilter.all(),
        SampleSize.blocks(SAMPLE_BLOCKS), SEED, IoSettings.defaults()), HtmlReportRendersInChromiumTest::session);
    List<RelationReport> rows = analysis.rows();
    List<DeadFractionHistogram> histograms = SamplePageView.histograms(dataDir,
        RankedRelation.rank(rows).stream().limit(HtmlReport.HISTOGRAM_RELATIONS).map(RankedRelation::relation).toList());
    // the path as a user in the project's root would give it, not this machine's absolute one
    HtmlReportHeader header = HtmlReportHeader.of(SAMPLE_DIRECTORY, started, analysis);

    Rendered page = render(new HtmlReport(header, histograms, rows.size()), rows, "sample");
    page.assertRendered();
    for (RelationReport row : rows) {
      String name = domText(HtmlText.visible(new RankedRelation(row, null).relationName()));
      assertTrue(page.dom().contains(">" + name + "<"), () -> "DOM lacks " + name);
    }
    assertEquals(HtmlReport.HISTOGRAM_RELATIONS, count(page.dom(), "<figure>"), "histograms drawn");
    assertTrue(page.dom().contains("seed " + SEED), "mode in the header");
    assertTrue(page.dom().contains(">" + SAMPLE_DIRECTORY + "<"), "data directory in the header");

    String screenshot = System.getProperty("pgbloat.screenshot");
    if (screenshot != null) {
      Rendered top = render(new HtmlReport(header, histograms, SCREENSHOT_RELATIONS), rows, "screenshot");
      top.assertRendered();
      Files.copy(top.png(), Path.of(screenshot), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  @Test
  void hostileNamesRenderAsTextAndRunNoScriptOfTheirOwn() throws Exception {
    List<RelationReport> rows = HtmlReportSamples.hostileRows();
    Rendered page = render(new HtmlReport(HtmlReportSamples.hostileHeader(), HtmlReportSamples.histograms(rows)),
        rows, "hostile");
    page.assertRendered();
    assertFalse(page.dom().contains("<script>alert"), "an injected script element");
    assertEquals(1, count(page.dom(), "<script>"), "only the report's own script");
    for (String name : HtmlReportSamples.HOSTILE_NAMES) {
      String text = domText(HtmlText.visible("public." + name));
      assertTrue(page.dom().contains(">" + text + "<"), () -> "DOM lacks " + text);
    }
    assertTrue(page.dom().contains(domText(HtmlText.visible(HtmlReportSamples.HOSTILE_FINDING))), "finding");
  }

  /** What the browser made of a page: its exit status and output, the screenshot and the DOM. */
  private record Rendered(int status, String output, Path png, String dom) {
    void assertRendered() throws IOException {
      assertEquals(0, status, output);
      assertFalse(output.contains("Uncaught"), output);
      byte[] bytes = Files.readAllBytes(png);
      assertTrue(bytes.length > MIN_PNG_BYTES, () -> "screenshot of " + bytes.length + " bytes");
      assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(bytes, PNG_SIGNATURE.length), "PNG signature");
      assertTrue(dom.contains(HtmlReport.RENDERED_MARKER), "the page's script ran to its end");
    }
  }

  private Rendered render(HtmlReport report, List<RelationReport> rows, String name) throws Exception {
    Path html = dir.resolve(name + ".html");
    Path png = dir.resolve(name + ".png");
    Path dom = dir.resolve(name + ".dom.html");
    Path log = dir.resolve(name + ".log");
    try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(html, StandardCharsets.UTF_8))) {
      report.write(rows, out);
    }
    Process p = new ProcessBuilder("bash", SCRIPT.toString(), html.toString(), png.toString(), dom.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(RENDER_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("render-html.sh did not finish in " + RENDER_TIMEOUT_SECONDS + " s");
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    String dumped = Files.exists(dom) ? Files.readString(dom, StandardCharsets.UTF_8) : "";
    return new Rendered(p.exitValue(), output, png, dumped);
  }

  /** Text as the browser's HTML serializer writes it (HTML standard, "escaping a string"). */
  private static String domText(String s) {
    return s.replace("&", "&amp;").replace("\u00a0", "&nbsp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static boolean onPath(String command) {
    String path = System.getenv("PATH");
    return path != null && Arrays.stream(path.split(File.pathSeparator))
        .anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, command)));
  }

  private static SparkSession session() {
    return LocalSpark.session("html-report-test", 2);
  }

  private static int count(String s, String part) {
    int n = 0;
    for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
      n++;
    }
    return n;
  }
}
