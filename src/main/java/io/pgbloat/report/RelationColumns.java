package io.pgbloat.report;

import static io.pgbloat.report.Column.bool;
import static io.pgbloat.report.Column.integer;
import static io.pgbloat.report.Column.text;

import io.pgbloat.advice.Action;
import io.pgbloat.catalog.Relation;
import io.pgbloat.figures.RelationFigures;
import io.pgbloat.rows.RelationReport;
import io.pgbloat.stats.Estimate;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The columns of the relation report (CSV, JSON, Parquet, the data source's level report): their
 * names (pgstattuple's where there is one) and cells. The order of {@link #ALL} is the order of
 * the output: pgstattuple's figures first, then the rewrite's (fillfactor, reclaimable bytes and
 * percent), then every estimate's standard error and 95 % interval.
 */
public final class RelationColumns {
  private RelationColumns() {}

  private static final List<Figure<RelationReport>> FIGURES = List.of(
      figure("tuple_count", false, RelationFigures::tupleCount),
      figure("tuple_len", false, RelationFigures::tupleLen),
      figure("tuple_percent", true, RelationFigures::tuplePercent),
      figure("dead_tuple_count", false, RelationFigures::deadTupleCount),
      figure("dead_tuple_len", false, RelationFigures::deadTupleLen),
      figure("dead_tuple_percent", true, RelationFigures::deadTuplePercent),
      figure("free_space", false, RelationFigures::freeSpace),
      figure("free_percent", true, RelationFigures::freePercent),
      figure("reclaimable_bytes", false, RelationFigures::reclaimableBytes),
      figure("reclaimable_percent", true, RelationFigures::reclaimablePercent));

  public static final List<Column<RelationReport>> ALL = columns();

  private static List<Column<RelationReport>> columns() {
    List<Column<RelationReport>> c = new ArrayList<>(naming(RelationReport::relation));
    c.addAll(List.of(
        text("relpath", r -> r.relation().relpath()),
        text("toast_of", r -> r.relation().toastOf()),
        integer("blocks", r -> Long.toString(r.figures().blocks())),
        integer("scanned_blocks", r -> Long.toString(r.figures().scannedBlocks())),
        integer("table_len", r -> Long.toString(r.figures().tableLen()))));
    for (Figure<RelationReport> figure : FIGURES) {
      c.add(figure.value());
      if (figure.name().equals("free_percent")) {
        c.add(integer("bad_pages", r -> Long.toString(r.figures().badPages())));
        c.add(integer("fillfactor", r -> Integer.toString(r.figures().fillfactor())));
      }
    }
    FIGURES.forEach(figure -> c.addAll(figure.bounds()));
    c.add(integer("sampled_blocks", r -> Long.toString(r.figures().scannedBlocks())));
    c.add(integer("sample_seed", r -> r.sampleSeed() == null ? null : Long.toString(r.sampleSeed())));
    // pg_class.relpersistence: 'u' marks an unlogged relation, read as its init fork where a
    // backup or a standby left only that
    c.add(text("relpersistence", r -> String.valueOf(r.relation().persistence())));
    // the figures leave out bad pages of a part read whole: what is counted is a lower bound
    c.add(bool("lower_bound", r -> Boolean.toString(r.figures().lowerBound())));
    // a partitioned table's rollup (relkind 'p'): how many leaf partitions it sums
    c.add(integer("partitions", r -> r.isRollup() ? Integer.toString(r.partitions()) : null));
    // what to do about it (advice/): none, vacuum, rewrite or sample more, why, and what a rewrite needs
    c.add(text("action", r -> r.advice().action().label()));
    c.add(text("action_reason", r -> r.advice().reason()));
    c.add(integer("rewrite_needs_bytes",
        r -> r.advice().action() == Action.REWRITE ? Long.toString(r.advice().rewriteNeedsBytes()) : null));
    return List.copyOf(c);
  }

  /** The columns that name a row's relation, first in each report: database, schema, relname, relkind. */
  static <R> List<Column<R>> naming(Function<R, Relation> relation) {
    return List.of(
        text("database", r -> relation.apply(r).database()),
        text("schema", r -> relation.apply(r).schema()),
        text("relname", r -> relation.apply(r).name()),
        text("relkind", r -> String.valueOf(relation.apply(r).kind())));
  }

  private static Figure<RelationReport> figure(String name, boolean percent,
      Function<RelationFigures, Estimate> estimate) {
    return new Figure<>(name, percent, r -> estimate.apply(r.figures()));
  }

  /** The column called {@code name}, or null when there is none. */
  public static Column<RelationReport> named(String name) {
    return Column.named(ALL, name).orElse(null);
  }
}
