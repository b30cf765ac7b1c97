package io.pgbloat.report;

import io.pgbloat.catalog.RelKind;
import io.pgbloat.catalog.Relation;
import io.pgbloat.figures.RelationFigures;
import io.pgbloat.rows.RelationReport;
import io.pgbloat.stats.DeadFractionHistogram;
import io.pgbloat.stats.Estimate;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Report rows with hostile names, for the HTML report's tests. */
final class HtmlReportSamples {
  /** Names that would break or inject into markup, a shell or a terminal if not escaped. */
  static final List<String> HOSTILE_NAMES = List.of(
      "<script>alert(1)</script>",
      "a\"b'c&d",
      "x\ny\tz",
      "</svg>",
      "</title><text>forged</text>",
      "]]><!-- -->",
      "$(touch /tmp/pwned); `id` | rm -rf ~ && echo ${HOME} > x",
      "🐘 elephant 💥 👨‍👩‍👧",
      "Ünïcødé_表_таблица",
      "\u202Egnp.exe",
      "bell\u0007 and escape\u001b[31m red",
      "lone \uD800 surrogate",
      "back\\slash");
  static final String HOSTILE_DATABASE = "db<&>\"'\n";
  static final String HOSTILE_FINDING = "bad page in <script>alert('finding')</script> block 7\nforged line";

  private HtmlReportSamples() {}

  /** One row per hostile name (a sampled estimate), in a hostile database, plus a TOAST table of the first. */
  static List<RelationReport> hostileRows() {
    List<RelationReport> rows = new ArrayList<>();
    long oid = 16384;
    for (String name : HOSTILE_NAMES) {
      rows.add(sampled(new Relation(HOSTILE_DATABASE, "public", name, RelKind.TABLE, "base/5/" + oid, "", oid),
          40_000 + 1000 * rows.size(), 9_000));
      oid++;
    }
    rows.add(sampled(new Relation("shop", "pg_toast", "pg_toast_" + oid, RelKind.TOAST_TABLE, "base/5/" + oid,
        "public." + HOSTILE_NAMES.get(0), oid), 500, 100));
    return rows;
  }

  /** A relation of 64 blocks of which 16 were read, with the given dead and free bytes. */
  static RelationReport sampled(Relation relation, double deadBytes, double freeBytes) {
    RelationFigures f = new RelationFigures(64, 16, 0,
        new Estimate(2000, 100, 1800, 2200), new Estimate(300_000, 9_000, 282_000, 318_000),
        new Estimate(300, 40, 220, 380), interval(deadBytes, 0.1), interval(freeBytes, 0.2),
        Estimate.sum(List.of(interval(deadBytes, 0.1), interval(freeBytes, 0.2))), 100,
        Estimate.exact(0), false);
    return new RelationReport(relation, f, 42L);
  }

  /** A histogram for every row: its pages spread over the bins by a fixed pattern. */
  static List<DeadFractionHistogram> histograms(List<RelationReport> rows) {
    List<DeadFractionHistogram> histograms = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      double[] fractions = new double[16];
      for (int p = 0; p < fractions.length; p++) {
        fractions[p] = ((p * (i + 3)) % 11) / 10.0;
      }
      histograms.add(DeadFractionHistogram.ofFractions(rows.get(i).relation(), fractions));
    }
    return histograms;
  }

  static HtmlReportHeader hostileHeader() {
    return new HtmlReportHeader("/data/<pg>&\"dir\"", Instant.parse("2026-11-30T09:30:00Z"),
        List.of(HOSTILE_FINDING), List.of("a warning about </svg> & co"));
  }

  /** What {@code report} writes of {@code rows}. */
  static <R> String write(ReportWriter<R> report, List<R> rows) {
    StringWriter s = new StringWriter();
    try (PrintWriter out = new PrintWriter(s)) {
      report.write(rows, out);
    }
    return s.toString();
  }

  /** An estimate with a symmetric 95 % interval of ± {@code relative} × value (t ≈ 2). */
  private static Estimate interval(double value, double relative) {
    double half = relative * value;
    return new Estimate(value, half / 2, Math.max(0, value - half), value + half);
  }
}
