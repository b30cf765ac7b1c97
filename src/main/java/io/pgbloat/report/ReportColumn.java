package io.pgbloat.report;

import io.pgbloat.advice.Action;
import io.pgbloat.figures.IndexFigures;
import io.pgbloat.figures.RelationFigures;
import io.pgbloat.rows.RelationReport;
import io.pgbloat.stats.Estimate;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A column of the CSV and JSON reports: its name (pgstattuple's where there is one) and its
 * value as text, or null for none. The order of {@link #ALL} is the order of the output:
 * pgstattuple's figures first, then the rewrite's (fillfactor, reclaimable bytes and percent),
 * then every estimate's standard error and 95 % interval.
 *
 * @param name column name
 * @param type what the text holds: JSON writes numbers bare, a DataFrame types the column by it
 * @param value the cell's text; null for an empty cell (JSON null)
 */
public record ReportColumn(String name, Type type, Function<RelationReport, String> value) {

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
  }

  /** A figure of {@link RelationFigures} that is reported with its bounds. */
  private record Figure(String name, boolean percent, Function<RelationFigures, Estimate> estimate) {
    Type type() {
      return percent ? Type.DECIMAL : Type.INTEGER;
    }
  }

  private static final List<Figure> FIGURES = List.of(
      new Figure("tuple_count", false, RelationFigures::tupleCount),
      new Figure("tuple_len", false, RelationFigures::tupleLen),
      new Figure("tuple_percent", true, RelationFigures::tuplePercent),
      new Figure("dead_tuple_count", false, RelationFigures::deadTupleCount),
      new Figure("dead_tuple_len", false, RelationFigures::deadTupleLen),
      new Figure("dead_tuple_percent", true, RelationFigures::deadTuplePercent),
      new Figure("free_space", false, RelationFigures::freeSpace),
      new Figure("free_percent", true, RelationFigures::freePercent),
      new Figure("reclaimable_bytes", false, RelationFigures::reclaimableBytes),
      new Figure("reclaimable_percent", true, RelationFigures::reclaimablePercent));

  public static final List<ReportColumn> ALL = columns();

  private static List<ReportColumn> columns() {
    List<ReportColumn> c = new ArrayList<>(List.of(
        text("database", r -> r.relation().database()),
        text("schema", r -> r.relation().schema()),
        text("relname", r -> r.relation().name()),
        text("relkind", r -> String.valueOf(r.relation().kind())),
        text("relpath", r -> r.relation().relpath()),
        text("toast_of", r -> r.relation().toastOf()),
        number("blocks", Type.INTEGER, f -> Long.toString(f.blocks())),
        number("scanned_blocks", Type.INTEGER, f -> Long.toString(f.scannedBlocks())),
        number("table_len", Type.INTEGER, f -> Long.toString(f.tableLen()))));
    for (Figure figure : FIGURES) {
      c.add(number(figure.name(), figure.type(), f -> value(figure, figure.estimate().apply(f))));
      if (figure.name().equals("free_percent")) {
        c.add(number("bad_pages", Type.INTEGER, f -> Long.toString(f.badPages())));
        c.add(number("fillfactor", Type.INTEGER, f -> Integer.toString(f.fillfactor())));
      }
    }
    for (Figure figure : FIGURES) {
      c.add(number(figure.name() + "_se", Type.DECIMAL, f -> standardError(figure, figure.estimate().apply(f))));
      c.add(number(figure.name() + "_ci_low", figure.type(), f -> bound(figure, figure.estimate().apply(f), false)));
      c.add(number(figure.name() + "_ci_high", figure.type(), f -> bound(figure, figure.estimate().apply(f), true)));
    }
    c.add(number("sampled_blocks", Type.INTEGER, f -> Long.toString(f.scannedBlocks())));
    c.add(new ReportColumn("sample_seed", Type.INTEGER,
        r -> r.sampleSeed() == null ? null : Long.toString(r.sampleSeed())));
    // pg_class.relpersistence: 'u' marks an unlogged relation, read as its init fork where a
    // backup or a standby left only that
    c.add(text("relpersistence", r -> String.valueOf(r.relation().persistence())));
    // the figures leave out bad pages of a part read whole: what is counted is a lower bound
    c.add(new ReportColumn("lower_bound", Type.BOOLEAN, r -> Boolean.toString(r.figures().lowerBound())));
    // a partitioned table's rollup (relkind 'p'): how many leaf partitions it sums
    c.add(new ReportColumn("partitions", Type.INTEGER, r -> r.isRollup() ? Integer.toString(r.partitions()) : null));
    // what to do about it (advice/): none, vacuum, rewrite or sample more, why, and what a rewrite needs
    c.add(text("action", r -> r.advice().action().label()));
    c.add(text("action_reason", r -> r.advice().reason()));
    c.add(new ReportColumn("rewrite_needs_bytes", Type.INTEGER,
        r -> r.advice().action() == Action.REWRITE ? Long.toString(r.advice().rewriteNeedsBytes()) : null));
    return List.copyOf(c);
  }

  private static ReportColumn text(String name, Function<RelationReport, String> value) {
    return new ReportColumn(name, Type.TEXT, value);
  }

  private static ReportColumn number(String name, Type type, Function<RelationFigures, String> value) {
    return new ReportColumn(name, type, r -> value.apply(r.figures()));
  }

  private static String value(Figure figure, Estimate e) {
    return EstimateText.value(e, figure.percent());
  }

  private static String standardError(Figure figure, Estimate e) {
    return EstimateText.standardError(e, figure.percent());
  }

  private static String bound(Figure figure, Estimate e, boolean high) {
    return EstimateText.bound(e, figure.percent(), high);
  }

  /** Two decimals, as pgstattuple's {@code snprintf("%.2f")} on glibc (see {@link IndexFigures#printed}). */
  static String percent(double value) {
    return IndexFigures.printed(value);
  }

  /** The column called {@code name}, or null when there is none. */
  public static ReportColumn named(String name) {
    return ALL.stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
  }

  /** This column's cell for {@code row}, or null when empty. */
  public String of(RelationReport row) {
    return value.apply(row);
  }

  /** Whether JSON writes the value bare (a number, true or false), not as a string. */
  public boolean numeric() {
    return type != Type.TEXT;
  }

  /** The cell as a typed value: String, Long or Double by {@link #type}; null when empty. */
  public Object typedValue(RelationReport row) {
    return type.parse(of(row));
  }
}
