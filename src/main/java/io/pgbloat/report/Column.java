package io.pgbloat.report;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A column of a report whose rows are {@code R} (the relation report's, the index report's, the
 * totals'): the name the CSV, JSON and Parquet outputs give it, what its text holds, and its cell.
 *
 * @param name column name
 * @param type what the text holds: JSON writes numbers bare, a DataFrame types the column by it
 * @param value the cell's text; null for an empty cell (JSON null)
 */
public record Column<R>(String name, Type type, Function<R, String> value) {

  /** What a column's text holds. */
  public enum Type {
    /** any text */
    TEXT,
    /** a whole number: counts, bytes, blocks, seeds */
    INTEGER,
    /** a decimal number: percentages, standard errors */
    DECIMAL,
    /** true or false */
    BOOLEAN;

    /** A cell's text as a typed value: String, Long or Double ("NaN" included); null for null. */
    public Object parse(String text) {
      if (text == null) {
        return null;
      }
      return switch (this) {
        case TEXT -> text;
        case INTEGER -> Long.parseLong(text);
        case DECIMAL -> Double.parseDouble(text);
        case BOOLEAN -> Boolean.parseBoolean(text);
      };
    }

    /**
     * Whether {@code text}, a cell of this type, holds a number that is none: a decimal whose
     * value is NaN (a ratio over nothing). A text cell never does, whatever it reads.
     */
    public boolean isNaN(String text) {
      return this == DECIMAL && text != null && Double.isNaN(Double.parseDouble(text));
    }
  }

  /** A column of text. */
  static <R> Column<R> text(String name, Function<R, String> value) {
    return new Column<>(name, Type.TEXT, value);
  }

  /** A column of whole numbers. */
  static <R> Column<R> integer(String name, Function<R, String> value) {
    return new Column<>(name, Type.INTEGER, value);
  }

  /** A column of true or false. */
  static <R> Column<R> bool(String name, Function<R, String> value) {
    return new Column<>(name, Type.BOOLEAN, value);
  }

  public String of(R row) {
    return value.apply(row);
  }

  /** The cell as a typed value: String, Long or Double ("NaN" included) by {@link #type}; null when empty. */
  public Object typedValue(R row) {
    return type.parse(of(row));
  }

  /** The column of {@code columns} named {@code name}, if there is one. */
  static <R> Optional<Column<R>> named(List<Column<R>> columns, String name) {
    return columns.stream().filter(c -> c.name().equals(name)).findFirst();
  }
}
