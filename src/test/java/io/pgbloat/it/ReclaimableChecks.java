package io.pgbloat.it;

import static io.pgbloat.page.PageHeader.BLCKSZ;

import io.pgbloat.it.SeedCheck.Verdict;
import io.pgbloat.it.SeedRebuilds.RebuiltSize;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The full scan's {@code reclaimable_bytes} against what the real rebuilds gave back
 * ({@link SeedRebuilds}). The bounds: a table or TOAST table within 2 % of its size or a block,
 * an index within 5 % of its size or two pages.
 */
final class ReclaimableChecks {
  private static final double TABLE_SHARE = 0.02;
  private static final long TABLE_BLOCKS = 1;
  private static final double INDEX_SHARE = 0.05;
  private static final long INDEX_BLOCKS = 2;
  /** The database the workload writes. */
  private static final String DATABASE = "postgres";

  private ReclaimableChecks() {
  }

  /**
   * One check a rebuilt relation, but for empty ones; a relation the report lacks, or whose size
   * the report gives otherwise, is a difference.
   */
  static List<SeedCheck> of(List<RebuiltSize> rebuilt, List<Map<String, String>> tableRows,
      List<Map<String, String>> indexRows, List<String> problems) {
    List<SeedCheck> checks = new ArrayList<>();
    for (RebuiltSize r : rebuilt) {
      if (r.before() == 0) {
        continue;
      }
      boolean index = !r.am().isEmpty();
      Optional<Map<String, String>> row = index ? find(indexRows, r.relation()) : table(tableRows, r.relation());
      if (row.isEmpty()) {
        problems.add(r.relation() + ": rebuilt on the server, not in the report");
        continue;
      }
      String size = row.get().get(index ? "index_size" : "table_len");
      if (!size.equals(Long.toString(r.before()))) {
        problems.add(r.relation() + ": " + r.before() + " bytes on the rebuild's server, " + size + " in the report");
        continue;
      }
      double allowed = index ? Math.max(INDEX_SHARE * r.before(), INDEX_BLOCKS * BLCKSZ)
          : Math.max(TABLE_SHARE * r.before(), TABLE_BLOCKS * BLCKSZ);
      String reported = row.get().get("reclaimable_bytes");
      String method = index ? r.am() : r.relation().startsWith("toast of ") ? "toast" : "table";
      if (reported == null || reported.isEmpty()) {
        checks.add(new SeedCheck("reclaimable", r.relation(), method, "reclaimable_bytes", r.reclaimed(), Double.NaN,
            r.reclaimed() - allowed, r.reclaimed() + allowed, Verdict.NOT_ESTIMATED));
        continue;
      }
      double tool = Double.parseDouble(reported);
      checks.add(new SeedCheck("reclaimable", r.relation(), method, "reclaimable_bytes", r.reclaimed(), tool,
          r.reclaimed() - allowed, r.reclaimed() + allowed,
          Math.abs(tool - r.reclaimed()) <= allowed ? Verdict.HELD : Verdict.MISSED));
    }
    return checks;
  }

  private static Optional<Map<String, String>> find(List<Map<String, String>> rows, String relation) {
    return rows.stream().filter(row -> DATABASE.equals(row.get("database")))
        .filter(row -> relation.equals(row.get("schema") + "." + row.get("relname"))).findFirst();
  }

  private static Optional<Map<String, String>> table(List<Map<String, String>> rows, String relation) {
    if (relation.startsWith("toast of ")) {
      String owner = relation.substring("toast of ".length());
      return rows.stream().filter(row -> DATABASE.equals(row.get("database")))
          .filter(row -> owner.equals(row.get("toast_of"))).findFirst();
    }
    return find(rows, relation);
  }
}
