package io.pgbloat.report;

import io.pgbloat.stats.Estimate;
import java.util.List;
import java.util.function.Function;

/**
 * An estimated figure of a report whose rows are {@code R}, and the columns it is written as:
 * its value ({@code name}), and apart from it its standard error and 95 % interval
 * ({@code name_se}, {@code name_ci_low}, {@code name_ci_high}), each written as
 * {@link EstimateText} writes it. An exact figure's interval is its value, its error 0.
 *
 * @param percent whether it is a percentage (two decimals) rather than a count or bytes
 * @param estimate the figure of one row, or null where the row has none (its cells empty)
 */
record Figure<R>(String name, boolean percent, Function<R, Estimate> estimate) {

  /** The type of the value's and the interval's columns. */
  Column.Type type() {
    return percent ? Column.Type.DECIMAL : Column.Type.INTEGER;
  }

  /** The value's column. */
  Column<R> value() {
    return column(name, type(), e -> EstimateText.value(e, percent));
  }

  /** The standard error's column and the interval's two, in that order. */
  List<Column<R>> bounds() {
    return List.of(
        column(name + "_se", Column.Type.DECIMAL, e -> EstimateText.standardError(e, percent)),
        column(name + "_ci_low", type(), e -> EstimateText.bound(e, percent, false)),
        column(name + "_ci_high", type(), e -> EstimateText.bound(e, percent, true)));
  }

  private Column<R> column(String columnName, Column.Type columnType, Function<Estimate, String> text) {
    return new Column<>(columnName, columnType, row -> {
      Estimate e = estimate.apply(row);
      return e == null ? null : text.apply(e);
    });
  }
}
