package io.pgbloat.report;

import static io.pgbloat.report.Column.bool;
import static io.pgbloat.report.Column.integer;
import static io.pgbloat.report.Column.text;

import io.pgbloat.catalog.RelKind;
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
  private record TotalFigure(Figure<TableTotal> figure, boolean fromIndexes) {}

  private static final List<TotalFigure> FIGURES = List.of(
      figure("wasted_bytes", false, false, TableTotal::wastedBytes),
      figure("reclaimable_bytes", false, true, TableTotal::reclaimableBytes),
      figure("reclaimable_percent", true, true, TableTotal::reclaimablePercent),
      figure("table_reclaimable_bytes", false, false, TableTotal::tableReclaimableBytes),
      figure("toast_reclaimable_bytes", false, false, TableTotal::toastReclaimableBytes),
      figure("index_reclaimable_bytes", false, true, TableTotal::indexReclaimableBytes));

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
    List<Column<TableTotal>> c = new ArrayList<>(RelationColumns.naming(TableTotal::table));
    c.add(integer("partitions", t -> t.table().kind() == RelKind.PARTITIONED_TABLE ? Integer.toString(t.partitions()) : null));
    if (indexes) {
      c.add(integer("total_bytes", t -> Long.toString(t.totalBytes())));
    }
    c.add(integer("table_bytes", t -> Long.toString(t.tableBytes())));
    c.add(integer("toast_bytes", t -> Long.toString(t.toastBytes())));
    if (indexes) {
      c.add(integer("index_bytes", t -> Long.toString(t.indexBytes())));
      c.add(integer("indexes", t -> Integer.toString(t.indexes().size())));
    }
    List<Figure<TableTotal>> figures = FIGURES.stream().filter(f -> indexes || !f.fromIndexes())
        .map(TotalFigure::figure).toList();
    figures.forEach(f -> c.add(f.value()));
    figures.forEach(f -> c.addAll(f.bounds()));
    if (indexes) {
      c.add(integer("rewrite_needs_bytes", t -> Long.toString(t.rewriteNeedsBytes())));
      c.add(bool("sampled", t -> Boolean.toString(t.isSampled())));
      // the indexes whose reclaimable bytes are not estimated: the total is a lower bound by them
      c.add(text("not_estimated", t -> t.notEstimated().isEmpty() ? null : String.join("; ", t.notEstimated())));
    }
    return List.copyOf(c);
  }

  private static TotalFigure figure(String name, boolean percent, boolean fromIndexes,
      Function<TableTotal, Estimate> estimate) {
    return new TotalFigure(new Figure<>(name, percent, estimate), fromIndexes);
  }
}
