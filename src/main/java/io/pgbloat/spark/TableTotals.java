package io.pgbloat.spark;

import io.pgbloat.catalog.Relation;
import io.pgbloat.catalog.RelationId;
import io.pgbloat.rows.IndexReport;
import io.pgbloat.rows.RelationReport;
import io.pgbloat.rows.TableTotal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The driver's grouping of counted rows into each reported table's total: its TOAST table by
 * {@link Relation#owner}, the indexes of both by theirs, a partitioned table's parts through
 * its leaf partitions.
 */
final class TableTotals {
  private final Map<RelationId, List<RelationReport>> toasts = new HashMap<>();
  private final Map<RelationId, List<IndexReport>> indexes = new HashMap<>();

  private TableTotals(List<RelationReport> counted, List<IndexReport> indexRows) {
    for (RelationReport row : counted) {
      Relation r = row.relation();
      if (r.isToast()) {
        toasts.computeIfAbsent(r.ownerId(), k -> new ArrayList<>()).add(row);
      }
    }
    for (IndexReport row : indexRows) {
      Relation r = row.relation();
      indexes.computeIfAbsent(r.ownerId(), k -> new ArrayList<>()).add(row);
    }
  }

  /**
   * The totals of the reported tables among {@code counted} (those not in {@code unreported};
   * TOAST tables are parts of their owners') and of the partitioned tables of {@code rollups},
   * in report order, from every counted heap and index row.
   */
  static List<TableTotal> of(List<RelationReport> counted, Set<Integer> unreported, List<PartitionRollup> rollups,
      List<IndexReport> indexRows) {
    TableTotals parts = new TableTotals(counted, indexRows);
    List<TableTotal> totals = new ArrayList<>();
    for (int i = 0; i < counted.size(); i++) {
      RelationReport row = counted.get(i);
      if (!unreported.contains(i) && !row.relation().isToast()) {
        List<RelationReport> heapRows = new ArrayList<>();
        List<IndexReport> indexReports = new ArrayList<>();
        parts.collect(row, heapRows, indexReports);
        totals.add(new TableTotal(row.relation(), heapRows, indexReports, 0));
      }
    }
    for (PartitionRollup rollup : rollups) {
      List<RelationReport> heapRows = new ArrayList<>();
      List<IndexReport> indexReports = new ArrayList<>();
      rollup.members().forEach(i -> parts.collect(counted.get(i), heapRows, indexReports));
      totals.add(new TableTotal(rollup.relation(), heapRows, indexReports, rollup.members().size()));
    }
    totals.sort((a, b) -> RelationSelector.REPORT_ORDER.compare(a.table(), b.table()));
    return totals;
  }

  /** {@code table}'s row, its TOAST tables' rows, and the rows of the indexes of each. */
  private void collect(RelationReport table, List<RelationReport> heapRows, List<IndexReport> indexRows) {
    Relation r = table.relation();
    heapRows.add(table);
    indexRows.addAll(indexes.getOrDefault(r.id(), List.of()));
    for (RelationReport toast : toasts.getOrDefault(r.id(), List.of())) {
      heapRows.add(toast);
      indexRows.addAll(indexes.getOrDefault(toast.relation().id(), List.of()));
    }
  }
}
