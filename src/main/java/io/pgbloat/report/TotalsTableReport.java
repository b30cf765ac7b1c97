package io.pgbloat.report;

import io.pgbloat.catalog.RelKind;
import io.pgbloat.rows.TableTotal;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The totals ({@code --totals}) for a terminal: per table its bytes by part, what it wastes and
 * what a rewrite gives back (the summary the HTML page shows too), of the columns of
 * {@link TotalColumns}.
 */
final class TotalsTableReport implements ReportWriter<TableTotal> {
  /** The titles of the totals' summary, in the terminal and on the HTML page. */
  static final List<String> TITLES = List.of("database", "table", "total", "table", "toast", "indexes", "wasted",
      "reclaimable", "reclaimable %", "not estimated");
  /** The summary's cells that hold names, which each renderer shows its own way; the others are figures. */
  static final Set<Integer> NAME_CELLS = Set.of(0, 1, 9);
  /** The columns aligned left, the table's names; the others are figures. */
  private static final int NAMES = 2;

  /**
   * One total's summary cells, unescaped: the table, its bytes by part, what it wastes, what
   * a rewrite with its indexes gives back (± half the 95 % interval when estimated), the
   * indexes left out of that.
   */
  static String[] summary(TableTotal t) {
    return new String[] {
        RankedRelation.databaseLabel(t.table()),
        t.table().schema() + "." + t.table().name() + (t.table().kind() == RelKind.PARTITIONED_TABLE ? " (" + t.partitions() + " partitions)" : ""),
        TableReport.size(t.totalBytes()),
        TableReport.size(t.tableBytes()),
        TableReport.size(t.toastBytes()),
        TableReport.size(t.indexBytes()),
        TableReport.sizeWithMargin(t.wastedBytes()),
        TableReport.sizeWithMargin(t.reclaimableBytes()),
        TableReport.percentWithMargin(t.reclaimablePercent()),
        String.join("; ", t.notEstimated())};
  }

  @Override
  public void write(List<TableTotal> rows, PrintWriter out) {
    List<String[]> cells = new ArrayList<>();
    for (TableTotal t : rows) {
      String[] line = summary(t);
      NAME_CELLS.forEach(c -> line[c] = TableReport.visible(line[c]));
      cells.add(line);
    }
    TerminalTable.write(TITLES.toArray(String[]::new), c -> c >= NAMES, cells, out);
    out.println("(" + rows.size() + " tables, each with its "
        + "TOAST table and every index, as pg_total_relation_size groups them; wasted: dead + free bytes of table and "
        + "TOAST; reclaimable: what VACUUM FULL would give back, indexes rebuilt" + (rows.stream()
        .anyMatch(TableTotal::isSampled) ? "; estimated from block samples, ± the 95 % interval" : "") + ")");
  }
}
