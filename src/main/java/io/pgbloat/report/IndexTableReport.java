package io.pgbloat.report;

import io.pgbloat.rows.IndexReport;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The index report ({@code --indexes}) for a terminal: a few columns of {@link IndexColumns}, the
 * index, its access method and size, levels, pages by kind, density (btree), free bytes and dead
 * items (the other methods), what a REINDEX would give back, and what to do about it.
 */
final class IndexTableReport implements ReportWriter<IndexReport> {
  /** The columns of {@link IndexColumns} the terminal and the HTML page show, after the index and its method. */
  static final List<String> SHOWN = List.of("index_size", "sampled_blocks", "tree_level", "leaf_pages",
      "deleted_pages", "empty_pages", "avg_leaf_density", "leaf_fragmentation", "free_space", "dead_tuple_count",
      "reclaimable_bytes", "bad_pages");

  private static final List<String> TITLES = List.of("database", "index", "am", "size", "read", "level",
      "leaf pages", "deleted", "empty", "leaf density %", "fragmentation %", "free", "dead items", "reclaimable",
      "bad pages", "action");
  /** Where the cells of {@link #SHOWN} start in a line, after the database, the index and its method. */
  private static final int FIRST_SHOWN = 3;
  /** The columns aligned left, the index's names; the others are figures. */
  private static final int NAMES = 2;

  @Override
  public void write(List<IndexReport> rows, PrintWriter out) {
    int read = FIRST_SHOWN + SHOWN.indexOf("sampled_blocks");
    List<String[]> cells = new ArrayList<>();
    for (IndexReport r : rows) {
      List<String> line = new ArrayList<>(List.of(TableReport.visible(RankedRelation.databaseLabel(r.relation())),
          TableReport.visible(label(r)), shown(r, "am")));
      SHOWN.forEach(name -> line.add(shown(r, name)));
      line.add(shown(r, "action"));
      line.set(read, !r.isAnalysed() ? "not analysed" : r.sampleSeed() == null ? "all" : line.get(read) + " blocks");
      cells.add(line.toArray(String[]::new));
    }
    TerminalTable.write(TITLES.toArray(String[]::new), c -> c >= NAMES, cells, out);
    out.println("(" + rows.size() + " indexes; btree: pgstatindex's figures; hash and "
        + "GiST: pgstattuple's free space and dead items; GIN, SP-GiST, BRIN: pd_upper - pd_lower; reclaimable: what a "
        + "REINDEX would give back" + (rows.stream().anyMatch(r -> r.sampleSeed() != null)
        ? "; estimated from block samples" : "") + ")");
  }

  /** The index as shown, unescaped: schema.name, and how many leaf indexes a partitioned one sums. */
  static String label(IndexReport r) {
    return r.relation().schema() + "." + r.relation().name()
        + (r.isRollup() ? " (" + r.partitions().size() + " partitions)" : "");
  }

  /** {@code r}'s cell of the column {@code name} as shown: bytes as a size, an empty cell empty. */
  static String shown(IndexReport r, String name) {
    String value = IndexColumns.named(name).of(r);
    return value == null ? "" : IndexColumns.BYTES.contains(name) ? TableReport.size(Long.parseLong(value)) : value;
  }
}
