package io.pgbloat.report;

import io.pgbloat.stats.Estimate;
import io.pgbloat.stats.IndexEstimates;
import io.pgbloat.stats.IndexReport;
import java.util.ArrayList;
import java.util.List;
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
      c.add(new IndexColumn(f.name(), type(f), r -> EstimateText.value(f.estimate().apply(r.estimates()), f.percent())));
    }
    c.add(integer("bad_pages", r -> Long.toString(r.estimates().badPages())));
    for (Figure f : FIGURES) {
      c.add(new IndexColumn(f.name() + "_se", ReportColumn.Type.DECIMAL,
          r -> EstimateText.standardError(f.estimate().apply(r.estimates()), f.percent())));
      c.add(new IndexColumn(f.name() + "_ci_low", type(f), r -> EstimateText.bound(f.estimate().apply(r.estimates()), f.percent(), false)));
      c.add(new IndexColumn(f.name() + "_ci_high", type(f), r -> EstimateText.bound(f.estimate().apply(r.estimates()), f.percent(), true)));
    }
    // blocks read: the good pages after the metapage, the bad ones (metapage included), a good metapage
    c.add(integer("sampled_blocks", r -> Long.toString(r.estimates().sampledPages() + r.estimates().badPages()
        + (r.estimates().meta().isBad() ? 0 : 1))));
    c.add(integer("sample_seed", r -> r.sampleSeed() == null ? null : Long.toString(r.sampleSeed())));
    c.add(text("relpersistence", r -> String.valueOf(r.relation().persistence())));
    return List.copyOf(c);
  }

  private static ReportColumn.Type type(Figure f) {
    return f.percent() ? ReportColumn.Type.DECIMAL : ReportColumn.Type.INTEGER;
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
    return type.parse(of(row));
  }

  /** The column named {@code name}. */
  public static IndexColumn named(String name) {
    return ALL.stream().filter(c -> c.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no index column " + name));
  }

  /** The index report's columns as a Spark schema. */
  public static org.apache.spark.sql.types.StructType schema() {
    return ReportFrame.schema(ALL.stream().map(c -> ReportFrame.field(c.name(), c.type())).toList());
  }
}
