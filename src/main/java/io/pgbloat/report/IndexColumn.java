package io.pgbloat.report;

import io.pgbloat.stats.Estimate;
import io.pgbloat.stats.IndexEstimates;
import io.pgbloat.stats.IndexFigures;
import io.pgbloat.stats.IndexReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * A column of the index report: pgstatindex's ten columns under its names, after the
 * index's identity, then each estimated figure's standard error and 95 % interval.
 *
 * @param name column name
 * @param type what the text holds
 * @param value the cell's text; null for an empty cell
 */
public record IndexColumn(String name, ReportColumn.Type type, Function<IndexReport, String> value) {

  /** An estimated figure; percentages print as pgstatindex prints them ("%.2f", NaN). */
  private record Figure(String name, boolean percent, Function<IndexEstimates, Estimate> estimate) {}

  private static final List<Figure> FIGURES = List.of(
      new Figure("internal_pages", false, IndexEstimates::internalPages),
      new Figure("leaf_pages", false, IndexEstimates::leafPages),
      new Figure("empty_pages", false, IndexEstimates::emptyPages),
      new Figure("deleted_pages", false, IndexEstimates::deletedPages),
      new Figure("avg_leaf_density", true, IndexEstimates::avgLeafDensity),
      new Figure("leaf_fragmentation", true, IndexEstimates::leafFragmentation));

  public static final List<IndexColumn> ALL = columns();

  private static List<IndexColumn> columns() {
    List<IndexColumn> c = new ArrayList<>(List.of(
        text("database", r -> r.relation().database()),
        text("schema", r -> r.relation().schema()),
        text("relname", r -> r.relation().name()),
        text("relkind", r -> String.valueOf(r.relation().kind())),
        text("relpath", r -> r.relation().relpath()),
        integer("version", r -> Long.toString(r.estimates().meta().version())),
        integer("tree_level", r -> Long.toString(r.estimates().meta().level())),
        integer("index_size", r -> Long.toString(r.estimates().figures().indexSize())),
        integer("root_block_no", r -> Long.toString(r.estimates().meta().root()))));
    for (Figure f : FIGURES) {
      c.add(new IndexColumn(f.name(), type(f), r -> value(f, f.estimate().apply(r.estimates()))));
    }
    c.add(integer("bad_pages", r -> Long.toString(r.estimates().badPages())));
    for (Figure f : FIGURES) {
      c.add(new IndexColumn(f.name() + "_se", ReportColumn.Type.DECIMAL,
          r -> String.format(Locale.ROOT, "%.4f", f.estimate().apply(r.estimates()).standardError())));
      c.add(new IndexColumn(f.name() + "_ci_low", type(f), r -> bound(f, f.estimate().apply(r.estimates()), false)));
      c.add(new IndexColumn(f.name() + "_ci_high", type(f), r -> bound(f, f.estimate().apply(r.estimates()), true)));
    }
    // blocks read: the good pages after the metapage, the bad ones (metapage included), a good metapage
    c.add(integer("sampled_blocks", r -> Long.toString(r.estimates().sampledPages() + r.estimates().badPages()
        + (r.estimates().meta().isBad() ? 0 : 1))));
    c.add(integer("sample_seed", r -> r.sampleSeed() == null ? null : Long.toString(r.sampleSeed())));
    return List.copyOf(c);
  }

  private static ReportColumn.Type type(Figure f) {
    return f.percent() ? ReportColumn.Type.DECIMAL : ReportColumn.Type.INTEGER;
  }

  /** NaN (no good page read) stays NaN for a percentage, as pgstatindex prints it, and empty for a count. */
  private static String value(Figure f, Estimate e) {
    if (f.percent()) {
      return IndexFigures.printed(e.value());
    }
    return Double.isFinite(e.value()) ? Long.toString(Math.round(e.value())) : null;
  }

  private static String bound(Figure f, Estimate e, boolean high) {
    if (e.isExact() || !Double.isFinite(e.value()) || !Double.isFinite(e.low()) || !Double.isFinite(e.high())) {
      return value(f, e);
    }
    double v = high ? e.high() : e.low();
    return f.percent() ? String.format(Locale.ROOT, "%.2f", high ? Math.ceil(v * 100) / 100 : Math.floor(v * 100) / 100)
        : Long.toString((long) (high ? Math.ceil(v) : Math.floor(v)));
  }

  private static IndexColumn text(String name, Function<IndexReport, String> value) {
    return new IndexColumn(name, ReportColumn.Type.TEXT, value);
  }

  private static IndexColumn integer(String name, Function<IndexReport, String> value) {
    return new IndexColumn(name, ReportColumn.Type.INTEGER, value);
  }

  public String of(IndexReport row) {
    return value.apply(row);
  }

  /** The cell as a typed value: String, Long or Double ("NaN" included) by {@link #type}; null when empty. */
  public Object typedValue(IndexReport row) {
    String text = of(row);
    if (text == null) {
      return null;
    }
    return switch (type) {
      case TEXT -> text;
      case INTEGER -> Long.parseLong(text);
      case DECIMAL -> Double.parseDouble(text);
    };
  }

  /** The index report's columns as a Spark schema. */
  public static org.apache.spark.sql.types.StructType schema() {
    return org.apache.spark.sql.types.DataTypes.createStructType(ALL.stream()
        .map(c -> org.apache.spark.sql.types.DataTypes.createStructField(c.name(), ReportFrame.sparkType(c.type()), true))
        .toArray(org.apache.spark.sql.types.StructField[]::new));
  }
}
