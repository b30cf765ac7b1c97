package io.pgbloat.report;

import io.pgbloat.rows.TableTotal;
import io.pgbloat.stats.Estimate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The columns of the totals ({@code --totals}): per table, its bytes as
 * {@code pg_total_relation_size} groups them (table, TOAST, indexes; main forks), what its heap
 * and TOAST pages waste, what rewriting it and rebuilding its indexes would give back, each
 * estimated figure's standard error and 95 % interval, and the indexes the reclaimable bytes
 * leave out.
 */
public final class TotalColumns {
  private TotalColumns() {}

  /**
   * An estimated figure of one total.
   *
   * @param fromIndexes whether the indexes' pages go into it
   */
  private record Figure(String name, boolean percent, boolean fromIndexes, Function<TableTotal, Estimate> estimate) {}

  private static final List<Figure> FIGURES = List.of(
      new Figure("wasted_bytes", false, false, TableTotal::wastedBytes),
      new Figure("reclaimable_bytes", false, true, TableTotal::reclaimableBytes),
      new Figure("reclaimable_percent", true, true, TableTotal::reclaimablePercent),
      new Figure("table_reclaimable_bytes", false, false, TableTotal::tableReclaimableBytes),
      new Figure("toast_reclaimable_bytes", false, false, TableTotal::toastReclaimableBytes),
      new Figure("index_reclaimable_bytes", false, true, TableTotal::indexReclaimableBytes));

  public static final List<Column<TableTotal>> ALL = columns(true);

  /**
   * The columns the indexes go into (their sizes, their figures, whether one was sampled): a
   * query that asks for none of them is answered without reading the indexes.
   */
  public static final Set<String> FROM_INDEXES = fromIndexes();

  private static Set<String> fromIndexes() {
    Set<String> names = new HashSet<>(ALL.stream().map(Column::name).toList());
    columns(false).forEach(c -> names.remove(c.name()));
    return Set.copyOf(names);
  }

  /** The columns, in order; with {@code indexes} false, only those the indexes go into not at all. */
  private static List<Column<TableTotal>> columns(boolean indexes) {
    List<Column<TableTotal>> c = new ArrayList<>(List.of(
        text("database", t -> t.table().database()),
        text("schema", t -> t.table().schema()),
        text("relname", t -> t.table().name()),
        text("relkind", t -> String.valueOf(t.table().kind())),
        integer("partitions", t -> t.table().kind() == 'p' ? Integer.toString(t.partitions()) : null)));
    if (indexes) {
      c.add(integer("total_bytes", t -> Long.toString(t.totalBytes())));
    }
    c.add(integer("table_bytes", t -> Long.toString(t.tableBytes())));
    c.add(integer("toast_bytes", t -> Long.toString(t.toastBytes())));
    if (indexes) {
      c.add(integer("index_bytes", t -> Long.toString(t.indexBytes())));
      c.add(integer("indexes", t -> Integer.toString(t.indexes().size())));
    }
    List<Figure> figures = FIGURES.stream().filter(f -> indexes || !f.fromIndexes()).toList();
    for (Figure f : figures) {
      c.add(new Column<>(f.name(), type(f), t -> EstimateText.value(f.estimate().apply(t), f.percent())));
    }
    for (Figure f : figures) {
      c.add(new Column<>(f.name() + "_se", ReportColumn.Type.DECIMAL,
          t -> EstimateText.standardError(f.estimate().apply(t), f.percent())));
      c.add(new Column<>(f.name() + "_ci_low", type(f), t -> EstimateText.bound(f.estimate().apply(t), f.percent(), false)));
      c.add(new Column<>(f.name() + "_ci_high", type(f), t -> EstimateText.bound(f.estimate().apply(t), f.percent(), true)));
    }
    if (indexes) {
      c.add(integer("rewrite_needs_bytes", t -> Long.toString(t.rewriteNeedsBytes())));
      c.add(new Column<>("sampled", ReportColumn.Type.BOOLEAN, t -> Boolean.toString(t.isSampled())));
      // the indexes whose reclaimable bytes are not estimated: the total is a lower bound by them
      c.add(text("not_estimated", t -> t.notEstimated().isEmpty() ? null : String.join("; ", t.notEstimated())));
    }
    return List.copyOf(c);
  }

  /** The column named {@code name}. */
  public static Column<TableTotal> named(String name) {
    return Column.named(ALL, name);
  }

  private static ReportColumn.Type type(Figure f) {
    return f.percent() ? ReportColumn.Type.DECIMAL : ReportColumn.Type.INTEGER;
  }

  private static Column<TableTotal> text(String name, Function<TableTotal, String> value) {
    return new Column<>(name, ReportColumn.Type.TEXT, value);
  }

  private static Column<TableTotal> integer(String name, Function<TableTotal, String> value) {
    return new Column<>(name, ReportColumn.Type.INTEGER, value);
  }
}
