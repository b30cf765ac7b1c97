package io.pgbloat.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.catalog.RelKind;
import io.pgbloat.catalog.Relation;
import io.pgbloat.figures.RelationFigures;
import io.pgbloat.rows.RelationReport;
import io.pgbloat.rows.TableTotal;
import io.pgbloat.stats.Estimate;
import io.pgbloat.testing.Csv;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one CSV and the one JSON writer of a report of {@link Column}s, on a small report of its
 * own (a name, a percentage and a byte count, each figure with its standard error and
 * interval) and on the relation report and the totals as the command line writes them.
 */
class ColumnWritersTest {
  /** A row of the small report. */
  private record Sample(String name, Estimate share, Estimate bytes) {}

  private static final Figure<Sample> SHARE = new Figure<>("share", true, Sample::share);
  private static final Figure<Sample> BYTES = new Figure<>("bytes", false, Sample::bytes);
  private static final List<Column<Sample>> COLUMNS = columns();

  private static List<Column<Sample>> columns() {
    List<Column<Sample>> c = new ArrayList<>();
    c.add(Column.text("name", Sample::name));
    c.add(SHARE.value());
    c.add(BYTES.value());
    c.addAll(SHARE.bounds());
    c.addAll(BYTES.bounds());
    return c;
  }

  private static final Sample EXACT = new Sample("exact", Estimate.exact(12.5), Estimate.exact(1000));
  /** Sampled: the interval is rounded outwards, the value to the nearest. */
  private static final Sample ESTIMATED = new Sample("estimated", new Estimate(24.86, 1.3, 22.3149, 27.4051),
      new Estimate(2000.4, 150.25, 1705.9, 2294.9));
  /** Named NaN, and nothing read of it: its percentage NaN, its count empty. */
  private static final Sample NAMED_NAN = new Sample("NaN", Estimate.unknown(), Estimate.unknown());

  private static final String HOSTILE = "we,ird \"q\"\nline\r\ttab é 🐘 \u2028";

  private static <R> String write(ReportWriter<R> writer, List<R> rows) {
    return HtmlReportSamples.write(writer, rows);
  }

  @Test
  void csvOfAFewRows() {
    assertEquals("""
        name,share,bytes,share_se,share_ci_low,share_ci_high,bytes_se,bytes_ci_low,bytes_ci_high
        exact,12.50,1000,0.0000,12.50,12.50,0.00,1000,1000
        estimated,24.86,2000,1.3000,22.31,27.41,150.25,1705,2295
        NaN,NaN,,,0.00,,,0,
        """, write(new CsvReport<>(COLUMNS), List.of(EXACT, ESTIMATED, NAMED_NAN)));
    assertEquals("name,share,bytes,share_se,share_ci_low,share_ci_high,bytes_se,bytes_ci_low,bytes_ci_high\n",
        write(new CsvReport<>(COLUMNS), List.of()));
  }

  @Test
  void jsonOfAFewRows() {
    assertEquals("""
        [
          {"name": "exact", "share": 12.50, "bytes": 1000, "share_se": 0.0000, "share_ci_low": 12.50, \
        "share_ci_high": 12.50, "bytes_se": 0.00, "bytes_ci_low": 1000, "bytes_ci_high": 1000},
          {"name": "estimated", "share": 24.86, "bytes": 2000, "share_se": 1.3000, "share_ci_low": 22.31, \
        "share_ci_high": 27.41, "bytes_se": 150.25, "bytes_ci_low": 1705, "bytes_ci_high": 2295},
          {"name": "NaN", "share": null, "bytes": null, "share_se": null, "share_ci_low": 0.00, \
        "share_ci_high": null, "bytes_se": null, "bytes_ci_low": 0, "bytes_ci_high": null}
        ]
        """, write(new JsonReport<>(COLUMNS), List.of(EXACT, ESTIMATED, NAMED_NAN)));
    assertEquals("[]\n", write(new JsonReport<>(COLUMNS), List.of()));
  }

  @Test
  void aTextCellReadingNaNIsAStringANumberThatIsNoneIsNull() {
    assertFalse(Column.Type.TEXT.isNaN("NaN"));
    assertTrue(Column.Type.DECIMAL.isNaN("NaN"));
    assertFalse(Column.Type.DECIMAL.isNaN("0.00"));
    assertFalse(Column.Type.DECIMAL.isNaN(null));
    assertFalse(Column.Type.INTEGER.isNaN("0"));
    String json = write(new JsonReport<>(COLUMNS), List.of(NAMED_NAN));
    assertTrue(json.contains("\"name\": \"NaN\""), json);
    assertTrue(json.contains("\"share\": null"), json);
  }

  /** A relation, and a table's total, named NaN with nothing read of it, as --format json writes them. */
  @Test
  void aRelationAndATotalNamedNaNKeepTheirNameInJson() {
    Relation table = new Relation("db", "s", "NaN", RelKind.TABLE, "base/1/2", "", 2);
    RelationReport unread = new RelationReport(table, new RelationFigures(4, 4, 4, Estimate.unknown(),
        Estimate.unknown(), Estimate.unknown(), Estimate.unknown(), Estimate.unknown(), Estimate.unknown(), 100,
        Estimate.unknown(), false), 1L);
    String relations = write(ReportWriter.forFormat("json"), List.of(unread));
    assertTrue(relations.contains("\"relname\": \"NaN\""), relations);
    assertTrue(relations.contains("\"tuple_percent\": null"), relations);
    String totals = write(ReportWriter.forTotals("json"), List.of(new TableTotal(table, List.of(unread), List.of(), 0)));
    assertTrue(totals.contains("\"relname\": \"NaN\""), totals);
    assertTrue(totals.contains("\"reclaimable_percent\": null"), totals);
    assertFalse(totals.contains("NaN,") || totals.contains(": NaN"), "no bare NaN: " + totals);
  }

  @Test
  void csvQuotesCommasQuotesAndLineBreaksAndKeepsNonAscii() {
    Sample hostile = new Sample(HOSTILE, Estimate.exact(1), Estimate.exact(2));
    Sample unicode = new Sample("é🐘", Estimate.exact(1), Estimate.exact(2));
    String csv = write(new CsvReport<>(COLUMNS), List.of(hostile, unicode));
    assertTrue(csv.contains("\n\"we,ird \"\"q\"\"\nline\r\ttab é 🐘 \u2028\",1.00,2,"), csv);
    assertTrue(csv.contains("\né🐘,1.00,2,"), csv);
    List<Map<String, String>> parsed = Csv.parseWithHeader(csv);
    assertEquals(List.of(HOSTILE, "é🐘"), parsed.stream().map(r -> r.get("name")).toList());
  }

  @Test
  void jsonEscapesQuotesBackslashesAndControlsAndKeepsNonAscii() {
    Sample hostile = new Sample(HOSTILE + "\\\u0001", Estimate.exact(1), Estimate.exact(2));
    String json = write(new JsonReport<>(COLUMNS), List.of(hostile));
    assertTrue(json.contains("{\"name\": \"we,ird \\\"q\\\"\\nline\\r\\ttab é 🐘 \\u2028\\\\\\u0001\", \"share\": 1.00,"),
        json);
  }

  @Test
  void aFigureIsItsValueThenItsStandardErrorAndIntervalApart() {
    assertEquals(List.of("share"), List.of(SHARE.value().name()));
    assertEquals(List.of("share_se", "share_ci_low", "share_ci_high"),
        SHARE.bounds().stream().map(Column::name).toList());
    assertEquals(List.of(Column.Type.DECIMAL, Column.Type.DECIMAL, Column.Type.DECIMAL),
        SHARE.bounds().stream().map(Column::type).toList());
    assertEquals(List.of(Column.Type.DECIMAL, Column.Type.INTEGER, Column.Type.INTEGER),
        BYTES.bounds().stream().map(Column::type).toList());
    // exact: no error, the interval is the value
    assertEquals(List.of("0.00", "1000", "1000"), cells(BYTES.bounds(), EXACT));
    assertEquals(List.of("0.0000", "12.50", "12.50"), cells(SHARE.bounds(), EXACT));
    // estimated: the interval rounded outwards, so the printed one holds the computed one
    assertEquals(List.of("150.25", "1705", "2295"), cells(BYTES.bounds(), ESTIMATED));
    assertEquals(List.of("1.3000", "22.31", "27.41"), cells(SHARE.bounds(), ESTIMATED));
    // a row without the figure: every cell empty
    Figure<Sample> none = new Figure<>("none", false, s -> null);
    assertEquals(Arrays.asList(null, null, null), cells(none.bounds(), EXACT));
    assertNull(none.value().of(EXACT));
  }

  private static List<String> cells(List<Column<Sample>> columns, Sample row) {
    return columns.stream().map(c -> c.of(row)).toList();
  }
}
