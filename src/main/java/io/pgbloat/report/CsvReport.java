package io.pgbloat.report;

import io.pgbloat.rows.RelationReport;
import java.io.PrintWriter;
import java.util.List;
import java.util.stream.Collectors;

/** The report as CSV: a header line, then a line per relation; fields quoted per RFC 4180. */
public final class CsvReport implements ReportWriter {

  @Override
  public void write(List<RelationReport> rows, PrintWriter out) {
    out.print(ReportColumn.ALL.stream().map(ReportColumn::name).collect(Collectors.joining(",")));
    out.print('\n');
    for (RelationReport row : rows) {
      out.print(ReportColumn.ALL.stream().map(c -> quote(c.of(row))).collect(Collectors.joining(",")));
      out.print('\n');
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
