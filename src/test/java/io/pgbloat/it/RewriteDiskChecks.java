package io.pgbloat.it;

import static io.pgbloat.page.PageHeader.BLCKSZ;

import io.pgbloat.it.SeedCheck.Verdict;
import io.pgbloat.it.SeedRebuilds.RewriteDisk;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The full scan's {@code --totals} {@code rewrite_needs_bytes} against the disk each real
 * VACUUM FULL took ({@link SeedRebuilds}): at least the larger of the new copies' size and the
 * directory's polled peak growth, and no more than the new copies, each up to the reclaimable
 * model's error (2 % of the total or a block a part, as ReclaimableMatchesVacuumFullTest
 * allows). An index whose rebuild the tool does not model counts whole in the figure, so its
 * size is allowed on top.
 */
final class RewriteDiskChecks {
  private static final double SHARE = 0.02;
  /** The database the workload writes. */
  private static final String DATABASE = "postgres";

  private RewriteDiskChecks() {
  }

  /** One check a rewritten table; a table the totals lack is a difference. */
  static List<SeedCheck> of(List<RewriteDisk> rewrites, List<Map<String, String>> totals,
      List<Map<String, String>> indexRows, List<String> problems) {
    List<SeedCheck> checks = new ArrayList<>();
    for (RewriteDisk rewrite : rewrites) {
      Map<String, String> total = totals.stream().filter(row -> DATABASE.equals(row.get("database")))
          .filter(row -> rewrite.relation().equals(row.get("schema") + "." + row.get("relname"))).findFirst()
          .orElse(null);
      if (total == null) {
        problems.add(rewrite.relation() + ": rewritten on the server, not in the totals");
        continue;
      }
      long before = Long.parseLong(total.get("total_bytes"));
      int parts = 1 + Integer.parseInt(total.get("indexes")) + (Long.parseLong(total.get("toast_bytes")) > 0 ? 1 : 0);
      double allowed = Math.max(SHARE * before, (double) parts * BLCKSZ);
      double truth = Math.max(rewrite.newCopies(), rewrite.peakGrowth());
      double high = rewrite.newCopies() + allowed + unmodelledBytes(total.get("not_estimated"), indexRows);
      double needs = Double.parseDouble(total.get("rewrite_needs_bytes"));
      checks.add(new SeedCheck("rewrite_disk", rewrite.relation(), "table", "rewrite_needs_bytes", truth, needs,
          truth - allowed, high, truth - allowed <= needs && needs <= high ? Verdict.HELD : Verdict.MISSED));
    }
    return checks;
  }

  /** The sizes of the indexes a total's {@code not_estimated} names ({@code schema.name (am)}; ...). */
  private static long unmodelledBytes(String notEstimated, List<Map<String, String>> indexRows) {
    if (notEstimated == null || notEstimated.isEmpty()) {
      return 0;
    }
    long bytes = 0;
    for (String entry : notEstimated.split("; ")) {
      String name = entry.substring(0, entry.indexOf(" ("));
      bytes += indexRows.stream().filter(row -> DATABASE.equals(row.get("database")))
          .filter(row -> name.equals(row.get("schema") + "." + row.get("relname")))
          .mapToLong(row -> Long.parseLong(row.get("index_size"))).sum();
    }
    return bytes;
  }
}
