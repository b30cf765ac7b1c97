package io.pgbloat.report;

import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.stats.RelationReport;
import java.util.Locale;
import java.util.function.DoublePredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A condition on a numeric column of the report ({@link ReportColumn}), {@code --fail-on}'s
 * argument: {@code reclaimable_percent>30}, {@code dead_tuple_len>=1GB}. It holds for a row when
 * the column's figure (the point estimate of a sample) passes the threshold; the line that
 * names the row gives the figure's 95 % interval too, and says when the interval straddles the
 * threshold, so the alert shows how sure it is.
 *
 * @param column the column
 * @param operator one of {@code > >= < <=}
 * @param threshold the number to compare with, in the column's units (bytes for a byte column)
 * @param text the condition as given
 */
public record AlertCondition(ReportColumn column, String operator, double threshold, String text) {
  private static final Pattern SYNTAX = Pattern.compile("\\s*([a-z_]+)\\s*(>=|<=|>|<)\\s*([0-9.]+\\s*[a-zA-Z]*)\\s*");

  /**
   * The condition {@code text}.
   *
   * @throws IllegalArgumentException naming what is wrong: the syntax, a column that is not
   *     there or not a number, or a threshold that is not a number or size
   */
  public static AlertCondition parse(String text) {
    Matcher m = SYNTAX.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("a condition is COLUMN OP NUMBER with OP one of > >= < <=, such as "
          + "reclaimable_percent>30 or dead_tuple_len>=1GB, not '" + text + "'");
    }
    ReportColumn column = ReportColumn.ALL.stream().filter(c -> c.name().equals(m.group(1))).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no column '" + m.group(1) + "' in the report (see README, "
            + "\"Columns\")"));
    if (!column.numeric() || column.type() == ReportColumn.Type.BOOLEAN) {
      throw new IllegalArgumentException("column '" + column.name() + "' is not a number");
    }
    double threshold;
    try {
      threshold = Double.parseDouble(m.group(3).trim());
    } catch (NumberFormatException e) {
      threshold = RelationFilter.bytes(m.group(3)); // a size: 64MB, 1GB
    }
    return new AlertCondition(column, m.group(2), threshold, text.trim());
  }

  /** Whether {@code row}'s figure passes the threshold; a row without the figure never does. */
  public boolean holds(RelationReport row) {
    double v = value(row, column.name());
    return !Double.isNaN(v) && test().test(v);
  }

  /** One line naming {@code row}, its figure and interval, and the condition. */
  public String describe(RelationReport row) {
    double v = value(row, column.name());
    double low = value(row, column.name() + "_ci_low");
    double high = value(row, column.name() + "_ci_high");
    String interval = Double.isNaN(low) || Double.isNaN(high) || low == high ? ""
        : String.format(Locale.ROOT, " (95 %% interval %s to %s%s)", number(low), number(high),
            test().test(low) == test().test(high) ? "" : ", straddling the threshold");
    String name = RankedRelation.databaseLabel(row.relation()) + ": " + RankedRelation.relationLabel(row.relation());
    return String.format(Locale.ROOT, "%s: %s %s%s meets %s", TableReport.visible(name), column.name(), number(v),
        interval, text);
  }

  private DoublePredicate test() {
    return switch (operator) {
      case ">" -> v -> v > threshold;
      case ">=" -> v -> v >= threshold;
      case "<" -> v -> v < threshold;
      default -> v -> v <= threshold;
    };
  }

  /** The number in {@code name}'s cell of {@code row}, or NaN when the cell is empty or absent. */
  private static double value(RelationReport row, String name) {
    return ReportColumn.ALL.stream().filter(c -> c.name().equals(name)).findFirst()
        .map(c -> c.of(row))
        .map(AlertCondition::parseNumber)
        .orElse(Double.NaN);
  }

  private static double parseNumber(String cell) {
    try {
      return Double.parseDouble(cell);
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  private static String number(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.2f", v);
  }
}
