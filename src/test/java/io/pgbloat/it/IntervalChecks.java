package io.pgbloat.it;

import io.pgbloat.it.SeedCheck.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A sampled run's 95 % intervals against the full scan's exact figures, which the seed has just
 * held to the server: every figure with an interval, of every workload relation the sample read
 * in part (one read whole is exact, and the full scan's comparison covers it). An interval of
 * no width that misses claims a certainty the sample did not have: that is a difference.
 */
final class IntervalChecks {
  private static final String LOW = "_ci_low";
  private static final String HIGH = "_ci_high";

  private IntervalChecks() {
  }

  /** The checks of the sampled {@code tables} and {@code indexes} against the full scan's rows. */
  static List<SeedCheck> of(List<Map<String, String>> exactTables, List<Map<String, String>> sampledTables,
      List<Map<String, String>> exactIndexes, List<Map<String, String>> sampledIndexes, List<String> problems) {
    List<SeedCheck> checks = new ArrayList<>();
    for (Map<String, String> sampled : sampledTables) {
      if (isWorkloadTable(sampled) && isPartlyRead(sampled, Long.parseLong(sampled.get("blocks")),
          Long.parseLong(sampled.get("scanned_blocks")))) {
        String method = sampled.get("toast_of").isEmpty() ? "table" : "toast";
        String name = method.equals("toast") ? "toast of " + sampled.get("toast_of")
            : sampled.get("schema") + "." + sampled.get("relname");
        same(exactTables, sampled).ifPresent(exact -> compare(name, method, exact, sampled, checks, problems));
      }
    }
    for (Map<String, String> sampled : sampledIndexes) {
      if ("public".equals(sampled.get("schema")) && "i".equals(sampled.get("relkind")) && isPartlyRead(sampled,
          Long.parseLong(sampled.get("index_size")) / io.pgbloat.page.PageHeader.BLCKSZ,
          Long.parseLong(sampled.get("sampled_blocks")))) {
        same(exactIndexes, sampled).ifPresent(exact -> compare(sampled.get("schema") + "." + sampled.get("relname"),
            sampled.get("am"), exact, sampled, checks, problems));
      }
    }
    return checks;
  }

  private static boolean isWorkloadTable(Map<String, String> row) {
    return ("public".equals(row.get("schema")) && !"p".equals(row.get("relkind")))
        || row.get("toast_of").startsWith("public.");
  }

  private static boolean isPartlyRead(Map<String, String> row, long blocks, long read) {
    return "postgres".equals(row.get("database")) && read < blocks;
  }

  private static Optional<Map<String, String>> same(List<Map<String, String>> rows, Map<String, String> row) {
    return rows.stream().filter(r -> r.get("relpath").equals(row.get("relpath"))).findFirst();
  }

  private static void compare(String name, String method, Map<String, String> exact, Map<String, String> sampled,
      List<SeedCheck> checks, List<String> problems) {
    for (String column : sampled.keySet()) {
      if (!column.endsWith(LOW)) {
        continue;
      }
      String figure = column.substring(0, column.length() - LOW.length());
      String truth = exact.get(figure);
      String estimate = sampled.get(figure);
      if (truth == null || truth.isEmpty() || estimate == null || estimate.isEmpty()
          || sampled.get(column).isEmpty()) {
        continue;
      }
      double t = Double.parseDouble(truth);
      double low = Double.parseDouble(sampled.get(column));
      double high = Double.parseDouble(sampled.get(figure + HIGH));
      SeedCheck check = new SeedCheck("interval", name, method, figure, t, Double.parseDouble(estimate), low, high,
          low <= t && t <= high ? Verdict.HELD : Verdict.MISSED);
      checks.add(check);
      if (check.verdict() == Verdict.MISSED && low == high) {
        problems.add("an interval of no width misses: " + check.describe());
      }
    }
  }
}
