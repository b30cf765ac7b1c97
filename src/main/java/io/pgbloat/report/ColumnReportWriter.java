package io.pgbloat.report;

import java.io.PrintWriter;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The CSV, JSON and terminal-table forms of a report of {@link Column}s (the index report, the
 * totals): the same quoting and escaping as the table report's writers.
 */
final class ColumnReportWriter {
  private ColumnReportWriter() {}

  static <R> void csv(List<Column<R>> columns, List<R> rows, PrintWriter out) {
    out.print(columns.stream().map(Column::name).collect(Collectors.joining(",")) + "\n");
    for (R row : rows) {
      out.print(columns.stream().map(c -> CsvReport.quote(c.of(row))).collect(Collectors.joining(",")) + "\n");
    }
  }

  static <R> void json(List<Column<R>> columns, List<R> rows, PrintWriter out) {
    out.print("[");
    for (int i = 0; i < rows.size(); i++) {
      R row = rows.get(i);
      out.print((i == 0 ? "\n  {" : ",\n  {") + columns.stream().map(c -> {
        String v = c.of(row);
        // NaN (a ratio over nothing) is no JSON number: null, as for any empty figure
        String json = v == null || v.equals("NaN") ? "null"
            : c.type() == Column.Type.TEXT ? JsonReport.string(v) : v;
        return JsonReport.string(c.name()) + ": " + json;
      }).collect(Collectors.joining(", ")) + "}");
    }
    out.print(rows.isEmpty() ? "]\n" : "\n]\n");
  }

  /**
   * A terminal table: the first {@code leftAligned} columns aligned left (names), the others
   * right (figures), a rule under the titles, then {@code footer}.
   */
  static void table(String[] titles, List<String[]> cells, int leftAligned, String footer, PrintWriter out) {
    int[] widths = new int[titles.length];
    for (int c = 0; c < titles.length; c++) {
      widths[c] = titles[c].length();
      for (String[] line : cells) {
        widths[c] = Math.max(widths[c], line[c].length());
      }
    }
    out.println(line(titles, widths, leftAligned));
    out.println(line(java.util.Arrays.stream(widths).mapToObj("-"::repeat).toArray(String[]::new), widths, leftAligned));
    for (String[] l : cells) {
      out.println(line(l, widths, leftAligned));
    }
    out.println(footer);
  }

  private static String line(String[] cells, int[] widths, int leftAligned) {
    StringBuilder b = new StringBuilder();
    for (int c = 0; c < cells.length; c++) {
      String pad = " ".repeat(widths[c] - cells[c].length());
      b.append(c == 0 ? "" : "  ").append(c < leftAligned ? cells[c] + pad : pad + cells[c]);
    }
    return b.toString().stripTrailing();
  }
}
