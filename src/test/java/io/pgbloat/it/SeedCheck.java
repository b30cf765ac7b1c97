package io.pgbloat.it;

import io.pgbloat.testing.Csv;
import java.util.List;
import java.util.Locale;

/**
 * One comparison a seed made, as a row of its {@code checks.csv}, which bench/differential.sh
 * gathers over the seeds.
 *
 * @param check {@code reclaimable} (the tool's full scan against a real rebuild),
 *     {@code rewrite_disk} (its totals' rewrite_needs_bytes against the disk a real VACUUM FULL
 *     took) or {@code interval} (a sampled run's 95 % interval against the full scan's exact figure)
 * @param relation {@code schema.name}, or {@code toast of schema.name}
 * @param method the index's access method, {@code table} or {@code toast}
 * @param figure the report column compared
 * @param truth what the server (or the full scan) says
 * @param tool the tool's figure (the sampled estimate, for an interval)
 * @param low the interval's low end; the bound's, for the other checks
 * @param high the interval's high end; the bound's, for the other checks
 * @param verdict whether it held
 */
record SeedCheck(String check, String relation, String method, String figure, double truth, double tool,
    double low, double high, Verdict verdict) {

  /** How a comparison came out. */
  enum Verdict {
    /** within the bound or the interval */
    HELD,
    /** outside it */
    MISSED,
    /** the tool gives no figure and says so ({@code not_estimated}, an empty column) */
    NOT_ESTIMATED;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  static final String HEADER = "seed,major,form,check,relation,method,figure,truth,tool,low,high,verdict";

  /** The row, led by the seed's own columns. */
  String csvLine(long seed, int major, String form) {
    return Csv.line(List.of(Long.toString(seed), Integer.toString(major), form, check, relation, method, figure,
        number(truth), number(tool), number(low), number(high), verdict.label()));
  }

  /** One line for a failure message. */
  String describe() {
    return String.format(Locale.ROOT, "%s %s %s (%s): truth %s, tool %s, [%s, %s]", check, relation, figure,
        method, number(truth), number(tool), number(low), number(high));
  }

  private static String number(double value) {
    return Double.isNaN(value) ? "" : value == Math.rint(value) ? Long.toString((long) value)
        : String.format(Locale.ROOT, "%.4f", value);
  }
}
