package io.pgbloat.catalog;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@link TableStatistics} of some of a database's tables: their pg_class rows, and, for the
 * tables whose rows give no density, the width the planner guesses their rows at from
 * pg_attribute and pg_statistic ({@link DataWidth}), which are read only then.
 */
final class TableStatisticsReader {
  private final CatalogReader catalog;
  private final TupleEstimateRule rule;

  TableStatisticsReader(CatalogReader catalog, TupleEstimateRule rule) {
    this.catalog = catalog;
    this.rule = rule;
  }

  /** The statistics of each of {@code tables} (by OID) that {@code classes} has a row of. */
  Map<Integer, TableStatistics> of(Database db, List<ClassRow> classes, RelationMap map, Set<Integer> tables) {
    Map<Integer, ClassRow> rows = new HashMap<>();
    Set<Integer> guessed = new HashSet<>();
    for (ClassRow c : classes) {
      if (tables.contains(c.oid())) {
        rows.put(c.oid(), c);
        if (TableStatistics.needsWidth(Integer.toUnsignedLong(c.pages()), c.tuples())) {
          guessed.add(c.oid());
        }
      }
    }
    Map<Integer, List<CatalogReader.AttributeRow>> columns = guessed.isEmpty() ? Map.of()
        : catalog.columns(db, classes, map, guessed);
    Map<Integer, Map<Integer, Integer>> widths = guessed.isEmpty() ? Map.of()
        : catalog.statisticWidths(db, classes, map, guessed);
    Map<Integer, TableStatistics> statistics = new HashMap<>();
    rows.forEach((oid, c) -> statistics.put(oid, new TableStatistics(rule, Integer.toUnsignedLong(c.pages()),
        c.tuples(), c.hasSubclass(), c.tableFillfactor(), !guessed.contains(oid) ? 0
            : DataWidth.of(columns.getOrDefault(oid, List.of()), widths.getOrDefault(oid, Map.of()), db.encoding()))));
    return statistics;
  }
}
