package io.pgbloat.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.catalog.RelKind;
import io.pgbloat.catalog.Relation;
import io.pgbloat.figures.RelationFigures;
import io.pgbloat.rows.RelationReport;
import io.pgbloat.stats.DeadFractionHistogram;
import io.pgbloat.stats.Estimate;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Attr;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

class HtmlReportTest {
  /** Every element the report writes; anything else would have been injected by a name. */
  private static final Set<String> ELEMENTS = Set.of("html", "head", "meta", "title", "style", "body", "h1", "h2",
      "dl", "dt", "dd", "strong", "section", "ul", "li", "table", "thead", "tbody", "tr", "th", "td", "p", "div",
      "figure", "figcaption", "footer", "sub", "script", "svg", "g", "text", "rect", "path", "line");
  private static final String MARKER_SCRIPT = "document.body.setAttribute('data-rendered', 'yes');";

  private final List<RelationReport> rows = HtmlReportSamples.hostileRows();
  private final String html = HtmlReportSamples.write(
      new HtmlReport(HtmlReportSamples.hostileHeader(), HtmlReportSamples.histograms(rows)), rows);

  @Test
  void hostileNamesGiveWellFormedXhtmlWithOnlyTheReportsOwnElements() throws Exception {
    Document doc = parse(html);
    List<Element> elements = elements(doc);
    Set<String> names = new HashSet<>();
    List<Element> scripts = new ArrayList<>();
    for (Element e : elements) {
      names.add(e.getLocalName());
      if (e.getLocalName().equals("script")) {
        scripts.add(e);
      }
      assertFalse(e.getTextContent().equals("forged"), "a name made an element of its own");
    }
    assertTrue(ELEMENTS.containsAll(names), () -> "unexpected elements: " + names);
    assertEquals(1, scripts.size(), "only the report's own script");
    assertEquals(MARKER_SCRIPT, scripts.get(0).getTextContent());
    long svgs = elements.stream().filter(e -> e.getLocalName().equals("svg")).count();
    assertEquals(2 + HtmlReport.HISTOGRAM_RELATIONS, svgs, "two bar charts and the top histograms");
  }

  @Test
  void everyNameReadsBackAsItsVisibleTextInTableChartTooltipAndAttribute() throws Exception {
    Document doc = parse(html);
    Set<String> cells = new HashSet<>();
    List<String> tooltips = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    for (Element e : elements(doc)) {
      switch (e.getLocalName()) {
        case "td" -> cells.add(e.getTextContent());
        case "title" -> tooltips.add(e.getTextContent());
        default -> { }
      }
      NamedNodeMap attributes = e.getAttributes();
      for (int i = 0; i < attributes.getLength(); i++) {
        labels.add(((Attr) attributes.item(i)).getValue());
      }
    }
    String database = HtmlText.visible(HtmlReportSamples.HOSTILE_DATABASE);
    assertTrue(cells.contains(database), "database cell");
    for (String name : HtmlReportSamples.HOSTILE_NAMES) {
      String visible = HtmlText.visible("public." + name);
      assertTrue(cells.contains(visible), () -> "table cell for " + visible);
      assertTrue(tooltips.stream().anyMatch(t -> t.startsWith(database + ": " + visible + "\n")),
          () -> "chart tooltip for " + visible);
      String qualified = HtmlText.visible(HtmlReportSamples.HOSTILE_DATABASE + ":public." + name);
      boolean drawn = labels.stream().anyMatch(l -> l.endsWith(qualified));
      boolean inTop = rowsInTop(name, HtmlReport.HISTOGRAM_RELATIONS);
      assertEquals(inTop, drawn, () -> "histogram aria-label for " + qualified);
    }
    assertTrue(cells.contains(HtmlText.visible("pg_toast.pg_toast_16397 (TOAST of public.<script>alert(1)</script>)")));
    assertTrue(doc.getElementsByTagNameNS("*", "li").item(0).getTextContent()
        .equals(HtmlText.visible(HtmlReportSamples.HOSTILE_FINDING)), "finding");
  }

  @Test
  void noHostileCharacterReachesTheFileRaw() {
    assertFalse(html.contains("<script>alert"), "script tag");
    assertFalse(html.contains("alert('finding')</script>"), "finding's script tag");
    assertEquals(count(html, "<svg"), count(html, "</svg>"), "an injected </svg> would close a chart early");
    assertEquals(count(html, "<title>"), count(html, "</title>"));
    assertFalse(html.contains("x\ny"), "a raw newline from a name");
    assertFalse(html.contains("b\"c") || html.contains("b'c&d"), "raw quotes or ampersand");
    for (int i = 0; i < html.length(); i++) {
      char ch = html.charAt(i);
      boolean allowedControl = ch == '\n';
      assertTrue(allowedControl || !Character.isISOControl(ch), "control character U+" + Integer.toHexString(ch));
      assertFalse(ch == '\u202E', "bidirectional override");
      if (Character.isHighSurrogate(ch)) {
        assertTrue(i + 1 < html.length() && Character.isLowSurrogate(html.charAt(i + 1)), "lone surrogate");
        i++;
      } else {
        assertFalse(Character.isLowSurrogate(ch), "lone surrogate");
      }
    }
  }

  @Test
  void pageLoadsNothingFromOutside() throws Exception {
    for (Element e : elements(parse(html))) {
      for (String attribute : List.of("src", "href", "srcset", "xlink:href", "poster", "data", "action")) {
        assertFalse(e.hasAttribute(attribute), () -> e.getLocalName() + " has " + attribute);
      }
      assertFalse(e.getLocalName().equals("link") || e.getLocalName().equals("img")
          || e.getLocalName().equals("iframe") || e.getLocalName().equals("object"), e.getLocalName());
    }
    String withoutNamespaces = html.replace("xmlns=\"http://www.w3.org/1999/xhtml\"", "")
        .replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    assertFalse(withoutNamespaces.contains("http:") || withoutNamespaces.contains("https:")
        || withoutNamespaces.contains("url(") || withoutNamespaces.contains("@import"), "a URL in the page");
  }

  @Test
  void emojiAndNonAsciiNamesStayAsTheyAre() {
    assertTrue(html.contains("public.🐘 elephant 💥 👨‍👩‍👧"));
    assertTrue(html.contains("public.Ünïcødé_表_таблица"));
    assertTrue(html.contains("public.back\\slash<"), "a backslash shown as it is, not doubled");
  }

  @Test
  void visibleShowsEveryNonPrintingCharacterAndChangesNoPrintableOne() {
    assertEquals("x␊y␉z␍", HtmlText.visible("x\ny\tz\r"));
    assertEquals("␇␛␡⟨U+0085⟩", HtmlText.visible("\u0007\u001b\u007f\u0085"));
    assertEquals("⟨U+202E⟩gnp.exe", HtmlText.visible("\u202Egnp.exe"));
    assertEquals("⟨U+2028⟩⟨U+2029⟩⟨U+FEFF⟩", HtmlText.visible("\u2028\u2029\uFEFF"));
    assertEquals("lone ⟨U+D800⟩ and ⟨U+DC00⟩", HtmlText.visible("lone \uD800 and \uDC00"));
    assertEquals("back\\slash", HtmlText.visible("back\\slash"), "a backslash is printable: shown as it is");
    assertEquals("👨‍👩‍👧", HtmlText.visible("👨‍👩‍👧"), "the zero width joiner of emoji sequences stays");
    assertEquals("⟨U+240A⟩ ⟨U+27E8⟩U+202E⟩", HtmlText.visible("␊ ⟨U+202E⟩"), "a name cannot pass for an escaped one");
    assertEquals("⟨U+E0001⟩", HtmlText.visible("\uDB40\uDC01"), "a format character beyond the BMP");
    assertEquals("&lt;a href=&quot;x&quot;&gt;&amp;&#39;", HtmlText.escape("<a href=\"x\">&'"));
  }

  @Test
  void shortNamesKeepWholeCodePoints() {
    assertEquals("🐘🐘…", HtmlText.shortName("🐘🐘🐘🐘", 3));
    assertEquals("&lt;b…", HtmlText.shortName("<b>bold</b>", 3));
    assertEquals("abc", HtmlText.shortName("abc", 3));
  }

  @Test
  void withoutHistogramsThePageSaysThePageViewWasNotCollected() throws Exception {
    String page = HtmlReportSamples.write(new HtmlReport(HtmlReportSamples.hostileHeader(), List.of()), rows);
    parse(page);
    assertTrue(page.contains("The page view was not collected for this run"));
    assertFalse(page.contains("<figure>"));
  }

  @Test
  void histogramsMatchRowsByDatabaseSchemaAndName() {
    RelationReport row = exactRow("db", "t", 4000, 100);
    Relation fromPageView = new Relation("db", "s", "t", RelKind.TABLE, "", "", 0); // the page view has no relpath or OID
    Relation other = new Relation("db", "s", "u", RelKind.TABLE, "base/1/2", "", 2);
    String page = HtmlReportSamples.write(new HtmlReport(HtmlReportSamples.hostileHeader(), List.of(
        DeadFractionHistogram.ofFractions(other, 0.5), DeadFractionHistogram.ofFractions(fromPageView, 0.5, 0.7))),
        List.of(row));
    assertEquals(1, count(page, "<figure>"));
    assertTrue(page.contains("db: s.t (2 pages)"), page);
  }

  @Test
  void rankedTableShowsTheTopRelationsByWastedBytes() throws Exception {
    List<RelationReport> three = List.of(exactRow("db", "small", 100, 100), exactRow("db", "big", 9000, 1000),
        exactRow("other", "middle", 500, 500));
    String page = HtmlReportSamples.write(new HtmlReport(HtmlReportSamples.hostileHeader(), List.of(), 2), three);
    Document doc = parse(page);
    Element table = doc.getElementById("ranked-table");
    if (table == null) { // the JDK's DOM knows ids only from a DTD; look the table up by hand
      table = elements(doc).stream().filter(e -> "ranked-table".equals(e.getAttribute("id"))).findFirst().orElseThrow();
    }
    NodeList lines = table.getElementsByTagNameNS("*", "tr");
    assertEquals(3, lines.getLength(), "header and the top 2");
    assertTrue(lines.item(1).getTextContent().contains("s.big"));
    assertTrue(lines.item(2).getTextContent().contains("s.middle"));
    assertTrue(page.contains("top 2 of 3"));
    assertTrue(page.contains("full scan: every block read (12 blocks)"), "mode");
  }

  @Test
  void databaseSummaryAddsVariancesOfIndependentRelations() {
    Estimate a = new Estimate(1000, 30, 940, 1060);
    Estimate b = new Estimate(2000, 40, 1920, 2080);
    Estimate sum = Estimate.sum(List.of(a, b, Estimate.exact(500)));
    assertEquals(3500, sum.value());
    assertEquals(50, sum.standardError(), 1e-9); // sqrt(30² + 40²)
    assertEquals(3500 - 100, sum.low(), 1e-9); // half-widths 60 and 80 add in quadrature to 100
    assertEquals(3500 + 100, sum.high(), 1e-9);
    assertEquals(a, Estimate.sum(List.of(a)), "one term keeps its own interval");
    assertTrue(Estimate.sum(List.of(Estimate.exact(1), Estimate.exact(2))).isExact());
    Estimate floored = Estimate.sum(List.of(new Estimate(10, 20, 0, 50)));
    assertEquals(0.0, floored.low(), "no total is negative");
  }

  @Test
  void axisStepsAreRoundNumbersOfABinaryUnit() {
    assertEquals(new SvgCharts.Axis(300 * 1024.0, 100 * 1024.0, 1), SvgCharts.axisFor(300 * 1024.0));
    assertEquals(new SvgCharts.Axis(400 * 1024.0, 100 * 1024.0, 1), SvgCharts.axisFor(334 * 1024.0));
    assertEquals(new SvgCharts.Axis(30 * 1024.0, 10 * 1024.0, 1), SvgCharts.axisFor(27 * 1024.0));
    assertEquals(new SvgCharts.Axis(1.5 * 1024 * 1024, 0.5 * 1024 * 1024, 2), SvgCharts.axisFor(1.4 * 1024 * 1024));
    assertEquals(new SvgCharts.Axis(800.0, 200.0, 0), SvgCharts.axisFor(700));
    assertEquals(new SvgCharts.Axis(1024.0, 0.2 * 1024, 1), SvgCharts.axisFor(0), "nothing to draw");
  }

  @Test
  void reportWriterForHtmlWritesAPageFromTheRowsAlone() throws Exception {
    ReportWriter<RelationReport> writer = ReportWriter.forFormat("html");
    assertInstanceOf(HtmlReport.class, writer);
    StringWriter s = new StringWriter();
    try (PrintWriter out = new PrintWriter(s)) {
      writer.write(rows, out);
    }
    parse(s.toString());
    assertTrue(s.toString().contains("(not given)"));
    assertTrue(s.toString().contains("sampled: 224 of 896 blocks read (25.00 %), seed 42"));
    parse(HtmlReportSamples.write(new HtmlReport(), List.of()));
  }

  static Document parse(String xhtml) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    DocumentBuilder builder = factory.newDocumentBuilder();
    builder.setErrorHandler(null);
    return builder.parse(new InputSource(new StringReader(xhtml)));
  }

  private static List<Element> elements(Document doc) {
    List<Element> all = new ArrayList<>();
    NodeList nodes = doc.getElementsByTagNameNS("*", "*");
    for (int i = 0; i < nodes.getLength(); i++) {
      Node n = nodes.item(i);
      all.add((Element) n);
    }
    return all;
  }

  private boolean rowsInTop(String name, int top) {
    return RankedRelation.rank(rows).subList(0, top).stream().anyMatch(r -> r.relation().name().equals(name));
  }

  /** The actions come first, rewrites before the rest, each with its reason; a small table has none. */
  @Test
  void thePageShowsWhatToDoFirst() throws Exception {
    long gb = 1L << 30;
    RelationReport big = new RelationReport(new Relation("db", "s", "bloated", RelKind.TABLE, "base/1/3", "", 3),
        new RelationFigures(131072, 131072, 0, Estimate.exact(10), Estimate.exact(gb / 2), Estimate.exact(3),
            Estimate.exact(0), Estimate.exact(gb / 2), Estimate.exact(gb / 2), 100, Estimate.exact(gb / 2), false),
        null);
    String page = HtmlReportSamples.write(new HtmlReport(HtmlReportSamples.hostileHeader(), List.of()),
        List.of(exactRow("db", "small", 1000, 1000), big));
    parse(page);
    int actions = page.indexOf("<section id=\"actions\">");
    assertTrue(actions > 0 && actions < page.indexOf("<h2", page.indexOf("</section>", actions)), "actions first");
    String section = page.substring(actions, page.indexOf("</section>", actions));
    assertTrue(section.contains("<td class=\"action\">rewrite</td>") && section.contains("s.bloated"), section);
    assertTrue(section.contains("VACUUM FULL, CLUSTER or pg_repack gives back 512 MB"), section);
    assertFalse(section.contains("s.small"), "a small table has no action");
  }

  private static RelationReport exactRow(String database, String name, long dead, long free) {
    return new RelationReport(new Relation(database, "s", name, RelKind.TABLE, "base/1/2", "", 2),
        new RelationFigures(4, 4, 0, Estimate.exact(10), Estimate.exact(1000), Estimate.exact(3),
            Estimate.exact(dead), Estimate.exact(free), Estimate.exact(dead + free), 100, Estimate.exact(0), false),
        null);
  }

  private static int count(String s, String part) {
    int n = 0;
    for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
      n++;
    }
    return n;
  }
}
