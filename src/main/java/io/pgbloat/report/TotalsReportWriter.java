package io.pgbloat.report;

import io.pgbloat.stats.TableTotal;
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

  /** Per table: its bytes by part, what it wastes, what a rewrite with its indexes gives back. */
  private static void table(List<TableTotal> rows, PrintWriter out) {
    String[] titles = {"database", "table", "total", "table", "toast", "indexes", "wasted", "reclaimable",
        "reclaimable %", "not estimated"};
    List<String[]> cells = new ArrayList<>();
    for (TableTotal t : rows) {
      cells.add(new String[] {
          TableReport.visible(t.table().isShared() ? "(shared)" : t.table().database()),
          TableReport.visible(t.table().schema() + "." + t.table().name()
              + (t.table().kind() == 'p' ? " (" + t.partitions() + " partitions)" : "")),
          TableReport.size(t.totalBytes()),
          TableReport.size(t.tableBytes()),
          TableReport.size(t.toastBytes()),
          TableReport.size(t.indexBytes()),
          TableReport.sizeWithMargin(t.wastedBytes()),
          TableReport.sizeWithMargin(t.reclaimableBytes()),
          TableReport.percentWithMargin(t.reclaimablePercent()),
          TableReport.visible(String.join("; ", t.notEstimated()))});
    }
    ColumnReportWriter.table(titles, cells, 2, "(" + rows.size() + " tables, each with its TOAST table and every "
        + "index, as pg_total_relation_size groups them; wasted: dead + free bytes of table and TOAST; reclaimable: "
        + "what VACUUM FULL would give back, indexes rebuilt" + (rows.stream().anyMatch(TableTotal::isSampled)
        ? "; estimated from block samples, ± the 95 % interval" : "") + ")", out);
  }
}
