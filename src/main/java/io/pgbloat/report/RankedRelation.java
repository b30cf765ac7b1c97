package io.pgbloat.report;

import io.pgbloat.catalog.RelKind;
import io.pgbloat.catalog.Relation;
import io.pgbloat.rows.RelationReport;
import io.pgbloat.stats.Estimate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A row of the HTML report with its wasted bytes (dead + free) as one estimate.
 *
 * @param row the relation and its figures
 * @param wasted dead plus free bytes, see {@link io.pgbloat.figures.RelationFigures#wastedBytes}
 */
record RankedRelation(RelationReport row, Estimate wasted) {

  /** The rows, most wasted bytes first, ties by database, schema and name (as the terminal table). */
  static List<RankedRelation> rank(List<RelationReport> rows) {
    List<RankedRelation> ranked = new ArrayList<>();
    for (RelationReport row : rows) {
      ranked.add(new RankedRelation(row, row.figures().wastedBytes()));
    }
    ranked.sort(largestFirst((RankedRelation r) -> r.wasted().value(), RankedRelation::relation));
    return ranked;
  }

  Relation relation() {
    return row.relation();
  }

  /** The database as shown: "(shared)" for the shared catalogs. */
  String database() {
    return databaseLabel(relation());
  }

  static String databaseLabel(Relation r) {
    return r.isShared() ? "(shared)" : r.database();
  }

  /** schema.name, and for a TOAST table whose it is: raw text, to be escaped by the writer. */
  String relationName() {
    return relationLabel(relation());
  }

  /**
   * schema.name as the table and the HTML page show it: with "(TOAST of owner)" for a TOAST
   * table, and "(unlogged)" for an unlogged relation (whose figures after a backup or on a
   * standby are those of its empty init fork, as the server shows it after recovery).
   */
  static String relationLabel(Relation r) {
    return r.schema() + "." + r.name() + (r.toastOf().isEmpty() ? "" : " (TOAST of " + r.toastOf() + ")")
        + (r.isUnlogged() ? " (unlogged)" : "") + (r.kind() == RelKind.PARTITIONED_TABLE ? " (partitions)" : "");
  }

  /** database: schema.name, for chart labels, where there is no database column. */
  String chartLabel() {
    return database() + ": " + relationName();
  }

  /**
   * The report's order: by {@code bytes} largest first, a row with no estimate (NaN) last, then
   * by database, schema and name.
   */
  static <T> Comparator<T> largestFirst(java.util.function.ToDoubleFunction<T> bytes,
      java.util.function.Function<T, Relation> relation) {
    return Comparator.comparingDouble((T t) -> {
      double v = bytes.applyAsDouble(t);
      return Double.isNaN(v) ? Double.NEGATIVE_INFINITY : v;
    }).reversed()
        .thenComparing(t -> relation.apply(t).database())
        .thenComparing(t -> relation.apply(t).schema())
        .thenComparing(t -> relation.apply(t).name());
  }
}
