package io.pgbloat.report;

import io.pgbloat.advice.Action;
import io.pgbloat.advice.Advice;
import io.pgbloat.catalog.Relation;
import io.pgbloat.figures.RelationFigures;
import io.pgbloat.rows.IndexReport;
import io.pgbloat.rows.RelationReport;
import io.pgbloat.rows.TableTotal;
import io.pgbloat.stats.DeadFractionHistogram;
import io.pgbloat.stats.Estimate;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report as one self-contained HTML page: a header on the run, a summary per database,
 * the relations that waste most (dead plus free bytes) as a table and as charts with their
 * 95 % intervals, and how dead tuples spread over the pages of the worst few.
 *
 * <p>The page is polyglot XHTML5: well-formed XML (so a test can check it strictly with an
 * XML parser) that browsers read as HTML. It loads nothing: the style sheet is inline, the
 * charts are SVG drawn by {@link SvgCharts}, and the one line of script only marks the page
 * as rendered, so that a headless browser's DOM dump shows the page ran without a script
 * error. Every name from the data directory goes through {@link HtmlText#name}.
 */
public final class HtmlReport implements ReportWriter<RelationReport> {
  /** Relations in the ranked table and the bar charts, unless told otherwise. */
  public static final int DEFAULT_TOP_RELATIONS = 50;
  /** Relations, from the top, whose per-page histogram is drawn. */
  public static final int HISTOGRAM_RELATIONS = 5;
  /** The attribute the page's script sets on {@code <body>} once it ran to its end. */
  public static final String RENDERED_MARKER = "data-rendered=\"yes\"";

  private static final DateTimeFormatter RUN_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT).withZone(ZoneOffset.UTC);

  private final HtmlReportHeader header;
  private final List<DeadFractionHistogram> histograms;
  private final int topRelations;
  private final List<IndexReport> indexes;
  private final List<TableTotal> totals;

  /** A report that knows only its rows ({@code --format html} through {@link ReportWriter#forFormat}). */
  public HtmlReport() {
    this(null, List.of(), DEFAULT_TOP_RELATIONS);
  }

  /** See {@link #HtmlReport(HtmlReportHeader, List, int)}, with the top {@value #DEFAULT_TOP_RELATIONS}. */
  public HtmlReport(HtmlReportHeader header, List<DeadFractionHistogram> histograms) {
    this(header, histograms, DEFAULT_TOP_RELATIONS);
  }

  /**
   * @param header the run; null for none (the page then says the data directory was not given)
   * @param histograms per-page dead fractions of any relations, matched to the rows by database,
   *     schema and name (what the page view's rows carry); those of the top
   *     {@value #HISTOGRAM_RELATIONS} by wasted bytes that have one are drawn. Empty when the
   *     page view was not collected, which the page then says.
   * @param topRelations how many relations the ranked table shows (the charts at most
   *     {@value #DEFAULT_TOP_RELATIONS})
   */
  public HtmlReport(HtmlReportHeader header, List<DeadFractionHistogram> histograms, int topRelations) {
    this(header, histograms, topRelations, List.of(), List.of());
  }

  private HtmlReport(HtmlReportHeader header, List<DeadFractionHistogram> histograms, int topRelations,
      List<IndexReport> indexes, List<TableTotal> totals) {
    if (topRelations < 1) {
      throw new IllegalArgumentException("Cannot show the top " + topRelations + " relations: need at least 1");
    }
    this.header = header;
    this.histograms = List.copyOf(histograms);
    this.topRelations = topRelations;
    this.indexes = List.copyOf(indexes);
    this.totals = List.copyOf(totals);
  }

  /** This report with a section for the indexes ({@code --indexes}). */
  public HtmlReport withIndexes(List<IndexReport> indexReports) {
    return new HtmlReport(header, histograms, topRelations, indexReports, totals);
  }

  /** This report with a section for each table's total ({@code --totals}). */
  public HtmlReport withTotals(List<TableTotal> tableTotals) {
    return new HtmlReport(header, histograms, topRelations, indexes, tableTotals);
  }

  @Override
  public void write(List<RelationReport> rows, PrintWriter out) {
    HtmlReportHeader run = header != null ? header : HtmlReportHeader.unknown(Instant.now());
    List<RankedRelation> ranked = RankedRelation.rank(rows);
    List<RankedRelation> top = ranked.subList(0, Math.min(topRelations, ranked.size()));
    // a chart of thousands of bars helps no one: the charts stop at the default top
    // nor can a relation with no estimate (nothing of a sampled part was readable) be drawn
    List<RankedRelation> charted = top.stream().filter(r -> r.wasted().isKnown()).limit(DEFAULT_TOP_RELATIONS)
        .toList();
    StringBuilder page = new StringBuilder(64 * 1024);
    page.append("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n")
        .append("<meta charset=\"utf-8\"/>\n<title>Bloat report: ").append(HtmlText.name(run.dataDirectory()))
        .append("</title>\n<style>\n").append(HtmlStyle.CSS).append("</style>\n</head>\n<body>\n");
    header(page, run, rows);
    actions(page, ranked, indexes);
    databases(page, rows);
    rankedTable(page, top, ranked.size());
    page.append("<h2 id=\"wasted-chart\">Wasted bytes with 95 % intervals</h2>\n");
    page.append(charted.isEmpty() ? "<p>No relations.</p>\n" : SvgCharts.wastedBytes(charted));
    page.append("<h2 id=\"dead-free-chart\">Dead and free bytes</h2>\n");
    page.append(charted.isEmpty() ? "<p>No relations.</p>\n" : SvgCharts.deadAndFree(charted));
    histograms(page, ranked);
    indexes(page);
    totals(page);
    footnotes(page);
    // Runs last: the marker is there only if the whole page was parsed and no script failed.
    page.append("<script>document.body.setAttribute('data-rendered', 'yes');</script>\n</body>\n</html>\n");
    out.print(page);
  }

  /**
   * What to do, first: the relations with an action (rewrites, then vacuums, then those a larger
   * sample would decide), each with its reason; most wasted first within each.
   */
  private static void actions(StringBuilder page, List<RankedRelation> ranked, List<IndexReport> indexes) {
    page.append("<section id=\"actions\">\n<h2>What to do</h2>\n");
    List<RankedRelation> acting = new ArrayList<>();
    for (Action action : List.of(Action.REWRITE, Action.VACUUM, Action.SAMPLE_MORE)) {
      ranked.stream().filter(r -> r.row().advice().action() == action).forEach(acting::add);
    }
    List<IndexReport> reindexing = new ArrayList<>();
    for (Action action : List.of(Action.REINDEX, Action.SAMPLE_MORE)) {
      indexes.stream().filter(i -> i.advice().action() == action).forEach(reindexing::add);
    }
    if (acting.isEmpty() && reindexing.isEmpty()) {
      page.append("<p>Nothing to do: no relation passes the thresholds.</p>\n</section>\n");
      return;
    }
    page.append("<table>\n<thead><tr><th>action</th><th>database</th><th>relation</th><th>why</th></tr></thead>\n"
        + "<tbody>\n");
    for (RankedRelation r : acting) {
      actionRow(page, r.row().advice(), r.database(), r.relationName());
    }
    for (IndexReport i : reindexing) {
      actionRow(page, i.advice(), RankedRelation.databaseLabel(i.relation()),
          i.relation().schema() + "." + i.relation().name() + " (index)");
    }
    page.append("</tbody>\n</table>\n</section>\n");
  }

  private static void actionRow(StringBuilder page, Advice advice, String database, String relation) {
    page.append("<tr><td class=\"action\">").append(HtmlText.escape(advice.action().label()))
        .append("</td><td class=\"name\">").append(HtmlText.name(database))
        .append("</td><td class=\"name\">").append(HtmlText.name(relation))
        .append("</td><td>").append(HtmlText.name(advice.reason())).append("</td></tr>\n");
  }

  private static void header(StringBuilder page, HtmlReportHeader run, List<RelationReport> rows) {
    long blocks = 0;
    long read = 0;
    long badPages = 0;
    Long seed = null;
    for (RelationReport row : rows) {
      blocks += row.figures().blocks();
      read += row.figures().scannedBlocks();
      badPages += row.figures().badPages();
      seed = seed != null ? seed : row.sampleSeed();
    }
    String mode = read >= blocks ? "full scan: every block read (" + blocks + " blocks)"
        : String.format(Locale.ROOT, "sampled: %d of %d blocks read (%.2f %%)%s", read, blocks,
            blocks == 0 ? 0.0 : 100.0 * read / blocks, seed == null ? "" : ", seed " + seed);
    page.append("<h1>Bloat report</h1>\n<dl class=\"run\">\n");
    item(page, "data directory", HtmlText.name(run.dataDirectory()));
    item(page, "run", run.runTime() == null ? "unknown" : RUN_TIME.format(run.runTime()));
    item(page, "mode", HtmlText.escape(mode));
    item(page, "relations", Long.toString(rows.size()));
    item(page, "bad pages", badPages == 0 ? "0" : "<strong class=\"bad\">" + badPages + "</strong>");
    page.append("</dl>\n");
    messages(page, "findings", "Findings (bad data)", run.findings());
    messages(page, "warnings", "Warnings", run.warnings());
  }

  private static void item(StringBuilder page, String term, String html) {
    page.append("<dt>").append(term).append("</dt><dd>").append(html).append("</dd>\n");
  }

  private static void messages(StringBuilder page, String id, String title, List<String> lines) {
    if (lines.isEmpty()) {
      return;
    }
    page.append("<section id=\"").append(id).append("\" class=\"").append(id).append("\">\n<h2>").append(title)
        .append("</h2>\n<ul>\n");
    for (String line : lines) {
      page.append("<li>").append(HtmlText.name(line)).append("</li>\n");
    }
    page.append("</ul>\n</section>\n");
  }

  /** One line per database, in the order first met, and a total when there are several. */
  private static void databases(StringBuilder page, List<RelationReport> rows) {
    // a partitioned table's rollup is left out: its partitions are counted in their own rows
    List<RelationReport> own = rows.stream().filter(r -> !r.isRollup()).toList();
    Map<String, List<RelationReport>> byDatabase = new LinkedHashMap<>();
    for (RelationReport row : own) {
      byDatabase.computeIfAbsent(RankedRelation.databaseLabel(row.relation()), k -> new ArrayList<>()).add(row);
    }
    page.append("<h2 id=\"databases\">Summary per database</h2>\n<table class=\"figures\">\n<thead><tr>")
        .append("<th>database</th><th>relations</th><th>size</th><th>live</th><th>dead</th><th>free</th>")
        .append("<th>wasted (dead + free)</th><th>95 % interval</th></tr></thead>\n<tbody>\n");
    byDatabase.forEach((name, members) -> databaseLine(page, HtmlText.name(name), members, false));
    if (byDatabase.size() > 1) {
      databaseLine(page, "all", own, true);
    }
    page.append("</tbody>\n</table>\n");
  }

  private static void databaseLine(StringBuilder page, String nameHtml, List<RelationReport> members, boolean total) {
    long size = members.stream().mapToLong(r -> r.figures().tableLen()).sum();
    Estimate live = Estimate.sum(members.stream().map(r -> r.figures().tupleLen()).toList());
    Estimate dead = Estimate.sum(members.stream().map(r -> r.figures().deadTupleLen()).toList());
    Estimate free = Estimate.sum(members.stream().map(r -> r.figures().freeSpace()).toList());
    Estimate wasted = Estimate.sum(members.stream().map(r -> r.figures().wastedBytes()).toList());
    page.append(total ? "<tr class=\"total\">" : "<tr>").append("<td>").append(nameHtml).append("</td>")
        .append(number(Long.toString(members.size()))).append(number(TableReport.size(size)))
        .append(number(bytes(live))).append(number(bytes(dead))).append(number(bytes(free)))
        .append(number(bytes(wasted))).append(number(intervalText(wasted))).append("</tr>\n");
  }

  private static void rankedTable(StringBuilder page, List<RankedRelation> top, int all) {
    page.append("<h2 id=\"ranked\">Relations by wasted bytes (top ").append(top.size()).append(" of ").append(all)
        .append(")</h2>\n<table class=\"figures\" id=\"ranked-table\">\n<thead><tr><th>#</th><th>database</th>")
        .append("<th>relation</th><th>kind</th><th>size</th><th>read</th><th>live %</th><th>dead %</th>")
        .append("<th>free %</th><th>wasted</th><th>95 % interval</th><th>reclaimable</th><th>bad pages</th>")
        .append("<th>action</th></tr>")
        .append("</thead>\n<tbody>\n");
    for (int i = 0; i < top.size(); i++) {
      RankedRelation r = top.get(i);
      RelationFigures f = r.row().figures();
      page.append("<tr>").append(number(Integer.toString(i + 1)))
          .append("<td class=\"name\">").append(HtmlText.name(r.database())).append("</td>")
          .append("<td class=\"name\">").append(HtmlText.name(r.relationName())).append("</td>")
          .append("<td>").append(HtmlText.name(String.valueOf(r.relation().kind()))).append("</td>")
          .append(number(TableReport.size(f.tableLen())))
          .append(number(f.scannedBlocks() >= f.blocks() ? "all" : f.scannedBlocks() + " of " + f.blocks()))
          .append(number(TableReport.percentWithMargin(f.tuplePercent())))
          .append(number(TableReport.percentWithMargin(f.deadTuplePercent())))
          .append(number(TableReport.percentWithMargin(f.freePercent())))
          .append(number(bytes(r.wasted()))).append(number(intervalText(r.wasted())))
          .append(number(TableReport.sizeWithMargin(f.reclaimableBytes())))
          .append(number(Long.toString(f.badPages()))).append(actionCell(r.row().advice())).append("</tr>\n");
    }
    page.append("</tbody>\n</table>\n");
  }

  /** The histograms of the top relations that have one, in rank order. */
  private void histograms(StringBuilder page, List<RankedRelation> ranked) {
    page.append("<h2 id=\"histograms\">Dead fraction per page</h2>\n");
    if (histograms.isEmpty()) {
      page.append("<p class=\"note\">The page view was not collected for this run, so there are no per-page "
          + "histograms.</p>\n");
      return;
    }
    page.append("<p class=\"note\">Pages of each relation by the share of the page's 8192 bytes taken by dead "
        + "tuples, in bins of 10 percentage points (bin 0 is [0, 10 %), the last [90, 100 %]). The pages are those "
        + "the run read, as each caption counts them: all of them in a full scan; in a sample the "
        + "histogram is itself an estimate.</p>\n<div class=\"histograms\">\n");
    int drawn = 0;
    for (RankedRelation r : ranked) {
      if (drawn == HISTOGRAM_RELATIONS) {
        break;
      }
      DeadFractionHistogram h = histogramOf(r.relation());
      if (h == null) {
        continue;
      }
      page.append("<figure>\n").append(SvgCharts.histogram(h)).append("<figcaption>")
          .append(HtmlText.name(r.chartLabel())).append(" (").append(h.totalPages()).append(" pages)</figcaption>\n")
          .append("</figure>\n");
      drawn++;
    }
    page.append("</div>\n");
    if (drawn == 0) {
      page.append("<p class=\"note\">None of the relations reported has a page view.</p>\n");
    }
  }

  /** An action's cell in a figures table, its reason the cell's title. */
  private static String actionCell(Advice advice) {
    return "<td class=\"action\" title=\"" + HtmlText.name(advice.reason()) + "\">"
        + HtmlText.escape(advice.action().label()) + "</td>";
  }

  /** The indexes, when the run read them: each access method's figures, in report order. */
  private void indexes(StringBuilder page) {
    if (indexes.isEmpty()) {
      return;
    }
    page.append("<h2 id=\"indexes\">Indexes (").append(indexes.size()).append(")</h2>\n")
        .append("<table class=\"figures\" id=\"index-table\">\n<thead><tr><th>database</th><th>index</th><th>am</th>")
        .append("<th>size</th><th>blocks read</th><th>level</th><th>leaf pages</th><th>deleted</th><th>empty</th>")
        .append("<th>leaf density %</th><th>fragmentation %</th><th>free</th><th>dead items</th>")
        .append("<th title=\"what a REINDEX would give back\">reclaimable</th><th>bad pages</th><th>action</th>")
        .append("</tr></thead>\n<tbody>\n");
    for (IndexReport index : indexes) {
      Relation r = index.relation();
      page.append("<tr><td class=\"name\">").append(HtmlText.name(RankedRelation.databaseLabel(r)))
          .append("</td><td class=\"name\">").append(HtmlText.name(IndexTableReport.label(index))).append("</td>")
          .append("<td>").append(HtmlText.name(r.am())).append(index.isAnalysed() ? "" : " (not analysed)").append("</td>");
      IndexTableReport.SHOWN.forEach(name -> page.append(number(IndexTableReport.shown(index, name))));
      page.append(actionCell(index.advice())).append("</tr>\n");
    }
    page.append("</tbody>\n</table>\n");
  }

  /**
   * Each table's total, when the run made them: heap, TOAST and indexes as
   * pg_total_relation_size groups them, largest reclaimable first (the figure a DBA ranks by).
   */
  private void totals(StringBuilder page) {
    if (totals.isEmpty()) {
      return;
    }
    List<TableTotal> ranked = new java.util.ArrayList<>(totals);
    ranked.sort(RankedRelation.largestFirst((TableTotal t) -> t.reclaimableBytes().value(), TableTotal::table));
    page.append("<h2 id=\"totals\">Totals: table, TOAST and indexes (").append(totals.size()).append(")</h2>\n")
        .append("<p class=\"note\">Grouped as pg_total_relation_size groups them (main forks). Wasted: dead and ")
        .append("free bytes of table and TOAST. Reclaimable: what VACUUM FULL would give back, its indexes rebuilt; ")
        .append("indexes listed under \"not estimated\" are left out of it, a lower bound.</p>\n")
        .append("<table class=\"figures\" id=\"totals-table\">\n<thead><tr>");
    TotalsTableReport.TITLES.forEach(title -> page.append("<th>").append(HtmlText.escape(title)).append("</th>"));
    page.append("</tr></thead>\n<tbody>\n");
    for (TableTotal t : ranked) {
      String[] cells = TotalsTableReport.summary(t);
      page.append("<tr>");
      for (int c = 0; c < cells.length; c++) {
        page.append(TotalsTableReport.NAME_CELLS.contains(c)
            ? "<td class=\"name\">" + HtmlText.name(cells[c]) + "</td>" : number(cells[c]));
      }
      page.append("</tr>\n");
    }
    page.append("</tbody>\n</table>\n");
  }

  private DeadFractionHistogram histogramOf(Relation relation) {
    for (DeadFractionHistogram h : histograms) {
      Relation other = h.relation();
      if (other.database().equals(relation.database()) && other.schema().equals(relation.schema())
          && other.name().equals(relation.name())) {
        return h;
      }
    }
    return null;
  }

  private static void footnotes(StringBuilder page) {
    page.append("<footer>\n<p>Wasted bytes are dead tuple bytes plus free space, as pgstattuple counts them. "
        + "Figures from a block sample are estimates; ± is half their 95 % interval, and an exact figure "
        + "(every block read) has none. Wasted bytes are estimated page by page, so their interval is their "
        + "own; relations are sampled independently, so the sums per database add their relations' "
        + "variances exactly.</p>\n</footer>\n");
  }

  private static String number(String text) {
    return "<td class=\"number\">" + HtmlText.escape(text) + "</td>";
  }

  private static String bytes(Estimate e) {
    return TableReport.bytes(e.value());
  }

  private static String intervalText(Estimate e) {
    return e.isExact() ? "exact" : SvgCharts.interval(e);
  }
}
