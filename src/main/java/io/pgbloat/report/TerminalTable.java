package io.pgbloat.report;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The aligned table the terminal shows of a report (relations, indexes, totals): the titles, a
 * rule of dashes under them, then a line per row, columns two spaces apart and each as wide as
 * its widest cell, trailing blanks cut. The cells come escaped ({@link TableReport#visible}).
 */
final class TerminalTable {
  private static final String GAP = "  ";

  private TerminalTable() {}

  /** @param rightAligned which columns, by index, are aligned right (figures); the others left (names) */
  static void write(String[] titles, IntPredicate rightAligned, List<String[]> cells, PrintWriter out) {
    int[] widths = new int[titles.length];
    for (int c = 0; c < titles.length; c++) {
      widths[c] = titles[c].length();
      for (String[] line : cells) {
        widths[c] = Math.max(widths[c], line[c].length());
      }
    }
    out.println(line(titles, widths, rightAligned));
    out.println(line(Arrays.stream(widths).mapToObj("-"::repeat).toArray(String[]::new), widths, rightAligned));
    for (String[] l : cells) {
      out.println(line(l, widths, rightAligned));
    }
  }

  private static String line(String[] cells, int[] widths, IntPredicate rightAligned) {
    StringBuilder b = new StringBuilder();
    for (int c = 0; c < cells.length; c++) {
      String pad = " ".repeat(widths[c] - cells[c].length());
      b.append(c == 0 ? "" : GAP).append(rightAligned.test(c) ? pad + cells[c] : cells[c] + pad);
    }
    return b.toString().stripTrailing();
  }
}
