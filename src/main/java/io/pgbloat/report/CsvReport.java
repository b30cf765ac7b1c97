package io.pgbloat.report;

import java.io.PrintWriter;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A report of {@link Column}s as CSV (the relation report, the index report, the totals): a
 * header line of the columns' names, then a line per row; fields quoted per RFC 4180, an empty
 * cell an empty field.
 */
public final class CsvReport<R> implements ReportWriter<R> {
  private final List<Column<R>> columns;

  public CsvReport(List<Column<R>> columns) {
    this.columns = List.copyOf(columns);
  }

  @Override
  public void write(List<R> rows, PrintWriter out) {
    out.print(columns.stream().map(Column::name).collect(Collectors.joining(",")) + "\n");
    for (R row : rows) {
      out.print(columns.stream().map(c -> quote(c.of(row))).collect(Collectors.joining(",")) + "\n");
    }
  }

  /** A field with a comma, quote or line break goes in quotes, its quotes doubled. */
  static String quote(String field) {
    if (field == null) {
      return "";
    }
    if (field.indexOf(',') < 0 && field.indexOf('"') < 0 && field.indexOf('\n') < 0 && field.indexOf('\r') < 0) {
      return field;
    }
    return '"' + field.replace("\"", "\"\"") + '"';
  }
}
