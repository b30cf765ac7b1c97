package io.pgbloat.report;

import io.pgbloat.stats.IndexReport;
import java.io.PrintWriter;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The index report ({@code --indexes}) as CSV, JSON or a terminal table: the same quoting and
 * escaping as the table report's writers, the columns of {@link IndexColumn}.
 */
public final class IndexReportWriter {
  private final String format;

  /** @param format csv, json or table */
  public IndexReportWriter(String format) {
    this.format = format;
  }

  public void write(List<IndexReport> rows, PrintWriter out) {
    switch (format) {
      case "csv" -> csv(rows, out);
      case "json" -> json(rows, out);
      default -> table(rows, out);
    }
  }

  private static void csv(List<IndexReport> rows, PrintWriter out) {
    out.print(IndexColumn.ALL.stream().map(IndexColumn::name).collect(Collectors.joining(",")) + "\n");
    for (IndexReport row : rows) {
      out.print(IndexColumn.ALL.stream().map(c -> CsvReport.quote(c.of(row))).collect(Collectors.joining(",")) + "\n");
    }
  }

  private static void json(List<IndexReport> rows, PrintWriter out) {
    out.print("[");
    for (int i = 0; i < rows.size(); i++) {
      IndexReport row = rows.get(i);
      out.print((i == 0 ? "\n  {" : ",\n  {") + IndexColumn.ALL.stream().map(c -> {
        String v = c.of(row);
        // NaN (an index with no leaf page) is no JSON number: null, as for any empty figure
        String json = v == null || v.equals("NaN") ? "null"
            : c.type() == ReportColumn.Type.TEXT ? JsonReport.string(v) : v;
        return JsonReport.string(c.name()) + ": " + json;
      }).collect(Collectors.joining(", ")) + "}");
    }
    out.print(rows.isEmpty() ? "]\n" : "\n]\n");
  }

  /**
   * A few columns for the terminal: the index, its access method and size, levels, pages by
   * kind, density (btree), free bytes and dead items (the other methods), what a REINDEX would
   * give back.
   */
  private static void table(List<IndexReport> rows, PrintWriter out) {
    String[] titles = {"database", "index", "am", "size", "read", "level", "leaf pages", "deleted", "empty",
        "leaf density %", "fragmentation %", "free", "dead items", "reclaimable", "bad pages"};
    String[] columns = {null, null, "am", "index_size", "sampled_blocks", "tree_level", "leaf_pages", "deleted_pages",
        "empty_pages", "avg_leaf_density", "leaf_fragmentation", "free_space", "dead_tuple_count", "reclaimable_bytes",
        "bad_pages"};
    int read = java.util.Arrays.asList(columns).indexOf("sampled_blocks");
    List<String[]> cells = new java.util.ArrayList<>();
    for (IndexReport r : rows) {
      String[] line = new String[titles.length];
      line[0] = TableReport.visible(r.relation().isShared() ? "(shared)" : r.relation().database());
      line[1] = TableReport.visible(r.relation().schema() + "." + r.relation().name());
      for (int c = 2; c < titles.length; c++) {
        String name = columns[c];
        String value = IndexColumn.named(name).of(r);
        line[c] = value == null ? "" : IndexColumn.BYTES.contains(name) ? TableReport.size(Long.parseLong(value)) : value;
      }
      line[read] = !r.isAnalysed() ? "not analysed" : r.sampleSeed() == null ? "all" : line[read] + " blocks";
      cells.add(line);
    }
    int[] widths = new int[titles.length];
    for (int c = 0; c < titles.length; c++) {
      widths[c] = titles[c].length();
      for (String[] line : cells) {
        widths[c] = Math.max(widths[c], line[c].length());
      }
    }
    out.println(line(titles, widths));
    out.println(line(java.util.Arrays.stream(widths).mapToObj("-"::repeat).toArray(String[]::new), widths));
    for (String[] l : cells) {
      out.println(line(l, widths));
    }
    out.println("(" + rows.size() + " indexes; btree: pgstatindex's figures; hash and GiST: pgstattuple's free space"
        + " and dead items; GIN, SP-GiST, BRIN: pd_upper - pd_lower; reclaimable: what a REINDEX would give back" + (rows.stream()
        .anyMatch(r -> r.sampleSeed() != null) ? "; estimated from block samples" : "") + ")");
  }

  private static String line(String[] cells, int[] widths) {
    StringBuilder b = new StringBuilder();
    for (int c = 0; c < cells.length; c++) {
      String pad = " ".repeat(widths[c] - cells[c].length());
      b.append(c == 0 ? "" : "  ").append(c < 2 ? cells[c] + pad : pad + cells[c]);
    }
    return b.toString().stripTrailing();
  }
}
