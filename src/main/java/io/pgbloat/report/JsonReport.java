package io.pgbloat.report;

import java.io.PrintWriter;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A report of {@link Column}s as a JSON array (the relation report, the index report, the
 * totals): an object per row, keys in column order; text quoted, numbers and booleans bare.
 */
public final class JsonReport<R> implements ReportWriter<R> {
  private final List<Column<R>> columns;

  public JsonReport(List<Column<R>> columns) {
    this.columns = List.copyOf(columns);
  }

  @Override
  public void write(List<R> rows, PrintWriter out) {
    out.print("[");
    for (int i = 0; i < rows.size(); i++) {
      R row = rows.get(i);
      out.print((i == 0 ? "\n  {" : ",\n  {")
          + columns.stream().map(c -> string(c.name()) + ": " + value(c, row)).collect(Collectors.joining(", "))
          + "}");
    }
    out.print(rows.isEmpty() ? "]\n" : "\n]\n");
  }

  /**
   * One cell: null when empty, or when a number that is none (NaN, a ratio over nothing: JSON
   * has no such number), by the column's type; a text cell is a string whatever it reads.
   */
  private static <R> String value(Column<R> column, R row) {
    String text = column.of(row);
    if (text == null || column.type().isNaN(text)) {
      return "null";
    }
    return column.type() == Column.Type.TEXT ? string(text) : text;
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
