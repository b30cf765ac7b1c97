package io.pgbloat.report;

import java.util.List;
import java.util.function.Function;

/**
 * A column of a report whose rows are {@code R}: the name the CSV, JSON and Parquet outputs
 * give it, what its text holds, and its cell.
 *
 * @param name column name
 * @param type what the text holds
 * @param value the cell's text; null for an empty cell
 */
public record Column<R>(String name, ReportColumn.Type type, Function<R, String> value) {

  public String of(R row) {
    return value.apply(row);
  }

  /** The cell as a typed value: String, Long or Double ("NaN" included) by {@link #type}; null when empty. */
  public Object typedValue(R row) {
    return type.parse(of(row));
  }

  /** The column of {@code columns} named {@code name}. */
  static <R> Column<R> named(List<Column<R>> columns, String name) {
    return columns.stream().filter(c -> c.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no column " + name));
  }
}
