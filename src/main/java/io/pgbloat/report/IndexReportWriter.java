package io.pgbloat.report;

import io.pgbloat.rows.IndexReport;
import java.io.PrintWriter;
import java.util.List;

/**
 * The index report ({@code --indexes}) as CSV, JSON or a terminal table: the same quoting and
 * escaping as the table report's writers, the columns of {@link IndexColumns}.
 */
public final class IndexReportWriter {
  private final String format;

  /** @param format csv, json or table */
  public IndexReportWriter(String format) {
    this.format = format;
  }

  public void write(List<IndexReport> rows, PrintWriter out) {
    switch (format) {
      case "csv" -> ColumnReportWriter.csv(IndexColumns.ALL, rows, out);
      case "json" -> ColumnReportWriter.json(IndexColumns.ALL, rows, out);
      default -> table(rows, out);
    }
  }

  /**
   * A few columns for the terminal: the index, its access method and size, levels, pages by
   * kind, density (btree), free bytes and dead items (the other methods), what a REINDEX would
   * give back, and what to do about it.
   */
  private static void table(List<IndexReport> rows, PrintWriter out) {
    String[] titles = {"database", "index", "am", "size", "read", "level", "leaf pages", "deleted", "empty",
        "leaf density %", "fragmentation %", "free", "dead items", "reclaimable", "bad pages", "action"};
    String[] columns = {null, null, "am", "index_size", "sampled_blocks", "tree_level", "leaf_pages", "deleted_pages",
        "empty_pages", "avg_leaf_density", "leaf_fragmentation", "free_space", "dead_tuple_count", "reclaimable_bytes",
        "bad_pages", "action"};
    int read = java.util.Arrays.asList(columns).indexOf("sampled_blocks");
    List<String[]> cells = new java.util.ArrayList<>();
    for (IndexReport r : rows) {
      String[] line = new String[titles.length];
      line[0] = TableReport.visible(r.relation().isShared() ? "(shared)" : r.relation().database());
      line[1] = TableReport.visible(r.relation().schema() + "." + r.relation().name()
          + (r.isRollup() ? " (" + r.partitions().size() + " partitions)" : ""));
      for (int c = 2; c < titles.length; c++) {
        String name = columns[c];
        String value = IndexColumns.named(name).of(r);
        line[c] = value == null ? "" : IndexColumns.BYTES.contains(name) ? TableReport.size(Long.parseLong(value)) : value;
      }
      line[read] = !r.isAnalysed() ? "not analysed" : r.sampleSeed() == null ? "all" : line[read] + " blocks";
      cells.add(line);
    }
    ColumnReportWriter.table(titles, cells, 2, "(" + rows.size() + " indexes; btree: pgstatindex's figures; hash and "
        + "GiST: pgstattuple's free space and dead items; GIN, SP-GiST, BRIN: pd_upper - pd_lower; reclaimable: what a "
        + "REINDEX would give back" + (rows.stream().anyMatch(r -> r.sampleSeed() != null)
        ? "; estimated from block samples" : "") + ")", out);
  }
}
