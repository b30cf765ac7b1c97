package io.pgbloat.report;

import io.pgbloat.rows.RelationReport;
import java.io.PrintWriter;
import java.util.List;

/** The report as a JSON array of objects, one per relation, keys in column order. */
public final class JsonReport implements ReportWriter {

  @Override
  public void write(List<RelationReport> rows, PrintWriter out) {
    out.print("[");
    for (int i = 0; i < rows.size(); i++) {
      out.print(i == 0 ? "\n  {" : ",\n  {");
      List<ReportColumn> columns = ReportColumn.ALL;
      for (int c = 0; c < columns.size(); c++) {
        ReportColumn column = columns.get(c);
        String value = column.of(rows.get(i));
        // NaN (a percentage of nothing known) is no JSON number: null, as for any empty figure
        String json = value == null || column.numeric() && value.equals("NaN") ? "null"
            : column.numeric() ? value : string(value);
        out.print((c == 0 ? "" : ", ") + string(column.name()) + ": " + json);
      }
      out.print("}");
    }
    out.print(rows.isEmpty() ? "]\n" : "\n]\n");
  }

  /** A JSON string literal (RFC 8259): quotes, backslashes and control characters escaped. */
  static String string(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      switch (ch) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (ch < 0x20 || ch == 0x2028 || ch == 0x2029) {
            b.append(String.format("\\u%04x", (int) ch));
          } else {
            b.append(ch);
          }
        }
      }
    }
    return b.append('"').toString();
  }
}
