package io.pgbloat.report;

import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.rows.RelationReport;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoublePredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A condition on a numeric column of the report ({@link RelationColumns}), {@code --fail-on}'s
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
public record AlertCondition(Column<RelationReport> column, String operator, double threshold, String text) {
  private static final Pattern SYNTAX =
      Pattern.compile("\\s*([a-z_]+)\\s*(>=|<=|>|<)\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([a-zA-Z]*)\\s*");

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
    Column<RelationReport> column = RelationColumns.named(m.group(1));
    if (column == null) {
      throw new IllegalArgumentException("no column '" + m.group(1) + "' in the report (see docs/reports-and-actions.md, \"Columns\")");
    }
    if (column.type() != Column.Type.INTEGER && column.type() != Column.Type.DECIMAL) {
      throw new IllegalArgumentException("column '" + column.name() + "' is not a number");
    }
    double threshold = Double.parseDouble(m.group(3));
    if (!m.group(4).isEmpty()) { // a size: only for a column of bytes, counted in whole bytes
      if (column.type() != Column.Type.INTEGER || m.group(3).contains(".")) {
        throw new IllegalArgumentException("a unit such as MB goes with a whole number and a column of bytes, not '"
            + text + "'");
      }
      try {
        threshold = RelationFilter.bytes(m.group(3) + m.group(4));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("'" + m.group(4) + "' is no unit of size (kB, MB, GB, TB), in '" + text
            + "'");
      }
    }
    return new AlertCondition(column, m.group(2), threshold, text.trim());
  }

  /** The lines naming each row that meets one of {@code conditions}, one a row and condition. */
  public static List<String> alerts(List<RelationReport> rows, List<AlertCondition> conditions) {
    List<String> lines = new ArrayList<>();
    for (RelationReport row : rows) {
      for (AlertCondition condition : conditions) {
        if (condition.holds(row)) {
          lines.add(condition.describe(row));
        }
      }
    }
    return lines;
  }

  /** Whether {@code row}'s figure passes the threshold; a row without the figure never does. */
  public boolean holds(RelationReport row) {
    double v = value(row, column.name());
    return !Double.isNaN(v) && test().test(v);
  }

  /** One line naming {@code row}, its figure (as the report writes it) and interval, and the condition. */
  public String describe(RelationReport row) {
    String low = cell(row, column.name() + "_ci_low");
    String high = cell(row, column.name() + "_ci_high");
    String interval = low == null || high == null || low.equals(high) ? ""
        : " (95 % interval " + low + " to " + high + (test().test(value(row, column.name() + "_ci_low"))
            == test().test(value(row, column.name() + "_ci_high")) ? "" : ", straddling the threshold") + ")";
    String name = RankedRelation.databaseLabel(row.relation()) + ": " + RankedRelation.relationLabel(row.relation());
    return TableReport.visible(name) + ": " + column.name() + " " + column.of(row) + interval + " meets " + text;
  }

  private DoublePredicate test() {
    return switch (operator) {
      case ">" -> v -> v > threshold;
      case ">=" -> v -> v >= threshold;
      case "<" -> v -> v < threshold;
      default -> v -> v <= threshold;
    };
  }

  /** {@code name}'s cell of {@code row}, or null when the column is absent or the cell empty. */
  private static String cell(RelationReport row, String name) {
    Column<RelationReport> c = RelationColumns.named(name);
    return c == null ? null : c.of(row);
  }

  /** The number in {@code name}'s cell of {@code row}, or NaN when there is none. */
  private static double value(RelationReport row, String name) {
    String cell = cell(row, name);
    if (cell == null) {
      return Double.NaN;
    }
    try {
      return Double.parseDouble(cell);
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }
}
