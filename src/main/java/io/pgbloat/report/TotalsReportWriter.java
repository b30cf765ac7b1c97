package io.pgbloat.report;

import io.pgbloat.rows.TableTotal;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** The totals ({@code --totals}) as CSV, JSON or a terminal table, the columns of {@link TotalColumns}. */
public final class TotalsReportWriter {
  private final String format;

  /** @param format csv, json or table */
  public TotalsReportWriter(String format) {
    this.format = format;
  }

  public void write(List<TableTotal> rows, PrintWriter out) {
    switch (format) {
      case "csv" -> ColumnReportWriter.csv(TotalColumns.ALL, rows, out);
      case "json" -> ColumnReportWriter.json(TotalColumns.ALL, rows, out);
      default -> table(rows, out);
    }
  }

  /** The titles of the totals' summary, in the terminal and on the HTML page. */
  static final List<String> TITLES = List.of("database", "table", "total", "table", "toast", "indexes", "wasted",
      "reclaimable", "reclaimable %", "not estimated");
  /** The summary's cells that hold names, which each renderer shows its own way; the others are figures. */
  static final java.util.Set<Integer> NAME_CELLS = java.util.Set.of(0, 1, 9);

  /**
   * One total's summary cells, unescaped: the table, its bytes by part, what it wastes, what
   * a rewrite with its indexes gives back (± half the 95 % interval when estimated), the
   * indexes left out of that.
   */
  static String[] summary(TableTotal t) {
    return new String[] {
        RankedRelation.databaseLabel(t.table()),
        t.table().schema() + "." + t.table().name() + (t.table().kind() == 'p' ? " (" + t.partitions() + " partitions)" : ""),
        TableReport.size(t.totalBytes()),
        TableReport.size(t.tableBytes()),
        TableReport.size(t.toastBytes()),
        TableReport.size(t.indexBytes()),
        TableReport.sizeWithMargin(t.wastedBytes()),
        TableReport.sizeWithMargin(t.reclaimableBytes()),
        TableReport.percentWithMargin(t.reclaimablePercent()),
        String.join("; ", t.notEstimated())};
  }

  private static void table(List<TableTotal> rows, PrintWriter out) {
    List<String[]> cells = new ArrayList<>();
    for (TableTotal t : rows) {
      String[] line = summary(t);
      NAME_CELLS.forEach(c -> line[c] = TableReport.visible(line[c]));
      cells.add(line);
    }
    ColumnReportWriter.table(TITLES.toArray(String[]::new), cells, 2, "(" + rows.size() + " tables, each with its "
        + "TOAST table and every index, as pg_total_relation_size groups them; wasted: dead + free bytes of table and "
        + "TOAST; reclaimable: what VACUUM FULL would give back, indexes rebuilt" + (rows.stream()
        .anyMatch(TableTotal::isSampled) ? "; estimated from block samples, ± the 95 % interval" : "") + ")", out);
  }
}
