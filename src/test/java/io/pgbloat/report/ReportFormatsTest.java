package io.pgbloat.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.catalog.RelKind;
import io.pgbloat.catalog.Relation;
import io.pgbloat.figures.RelationFigures;
import io.pgbloat.rows.RelationReport;
import io.pgbloat.stats.Estimate;
import io.pgbloat.testing.Csv;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportFormatsTest {
  private static final String HOSTILE = "we,ird \"name\"\nwith\ttab <b>&";

  private static RelationReport row(String name, long deadLen, long free) {
    return new RelationReport(new Relation("db", "s", name, RelKind.TABLE, "base/1/2", "", 2),
        new RelationFigures(4, 4, 0, Estimate.exact(10), Estimate.exact(1000), Estimate.exact(3),
            Estimate.exact(deadLen), Estimate.exact(free), Estimate.exact(deadLen + free), 100, Estimate.exact(free),
            false), null);
  }

  private static String render(ReportWriter<RelationReport> w, List<RelationReport> rows) {
    StringWriter s = new StringWriter();
    try (PrintWriter out = new PrintWriter(s)) {
      w.write(rows, out);
    }
    return s.toString();
  }

  @Test
  void percentRoundsTheBinaryValueTiesToEvenAsPrintfDoes() {
    assertEquals("12.12", EstimateText.percent(12.125)); // an exact binary tie: glibc gives 12.12
    assertEquals("0.38", EstimateText.percent(0.375));
    assertEquals("0.13", EstimateText.percent(0.125000001));
    assertEquals("0.01", EstimateText.percent(0.005)); // 0.005 is just above the tie in binary
    assertEquals("0.00", EstimateText.percent(0.0));
    assertEquals("100.00", EstimateText.percent(100.0));
  }

  @Test
  void csvQuotesPerRfc4180AndRoundTrips() {
    String csv = render(new CsvReport<>(RelationColumns.ALL), List.of(row(HOSTILE, 8, 16)));
    List<Map<String, String>> parsed = Csv.parseWithHeader(csv);
    assertEquals(1, parsed.size());
    assertEquals(HOSTILE, parsed.get(0).get("relname"));
    assertEquals("0.02", parsed.get(0).get("dead_tuple_percent"));
    assertEquals(RelationColumns.ALL.stream().map(Column::name).toList(), Csv.header(csv));
  }

  /** A relation of which nothing good was read: its figures unknown, never a bare NaN, listed last. */
  private static RelationReport unread(String name) {
    return new RelationReport(new Relation("db", "s", name, RelKind.TABLE, "base/1/3", "", 3),
        new RelationFigures(4, 4, 4, Estimate.unknown(), Estimate.unknown(), Estimate.unknown(), Estimate.unknown(),
            Estimate.unknown(), Estimate.unknown(), 100, Estimate.unknown(), false), 1L);
  }

  @Test
  void unknownFiguresAreJsonNullsAndSortLast() {
    String json = render(new JsonReport<>(RelationColumns.ALL), List.of(unread("a_unread"), row("b", 8, 16)));
    assertTrue(!json.contains("NaN"), json);
    assertTrue(json.contains("\"dead_tuple_percent\": null"), json);
    String table = render(new TableReport(), List.of(unread("a_unread"), row("b", 8, 16)));
    assertTrue(table.indexOf("s.b") < table.indexOf("s.a_unread"), table);
  }

  @Test
  void jsonEscapesStringsAndWritesNumbersBare() {
    String json = render(new JsonReport<>(RelationColumns.ALL), List.of(row(HOSTILE, 8, 16)));
    assertTrue(json.contains("\"relname\": \"we,ird \\\"name\\\"\\nwith\\ttab <b>&\""), json);
    assertTrue(json.contains("\"tuple_count\": 10,"), json);
    assertEquals("[]\n", render(new JsonReport<>(RelationColumns.ALL), List.of()));
  }

  @Test
  void tableShowsControlCharactersEscapedAndSortsByWaste() {
    String table = render(new TableReport(), List.of(row("small", 8, 8), row(HOSTILE, 16000, 8)));
    String[] lines = table.split("\n");
    assertTrue(lines[2].contains("s.we,ird \"name\"\\nwith\\ttab <b>&"), table);
    assertTrue(lines[3].contains("s.small"), table);
    assertEquals(5, lines.length, table);
  }

  @Test
  void sizesFollowPgSizePretty() {
    assertEquals("10239 bytes", TableReport.size(10239));
    assertEquals("10 kB", TableReport.size(10240));
    assertEquals("720 kB", TableReport.size(737280));
    assertEquals("1229 MB", TableReport.size(1288495104L));
  }
}
