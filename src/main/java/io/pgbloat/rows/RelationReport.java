package io.pgbloat.rows;

import io.pgbloat.advice.ActionAdvisor;
import io.pgbloat.advice.ActionThresholds;
import io.pgbloat.advice.Advice;
import io.pgbloat.catalog.RelKind;
import io.pgbloat.catalog.Relation;
import io.pgbloat.figures.RelationFigures;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * One row of the report: a relation, its figures, and what to do about it.
 *
 * @param sampleSeed the seed its sample was drawn with, or null when every block was read
 *     by a full scan
 * @param partitions for a partitioned table's rollup, the leaf partitions its figures sum; 0
 *     for a relation of its own
 * @param advice the recommended action ({@link ActionAdvisor})
 */
public record RelationReport(Relation relation, RelationFigures figures, Long sampleSeed, int partitions,
    Advice advice) implements Serializable {

  /** A relation's own row, advised against {@code thresholds}. */
  public RelationReport(Relation relation, RelationFigures figures, Long sampleSeed, ActionThresholds thresholds) {
    this(relation, figures, sampleSeed, 0, ActionAdvisor.advise(figures, relation.toastOf(), thresholds));
  }

  /** A relation's own row, advised against the default thresholds. */
  public RelationReport(Relation relation, RelationFigures figures, Long sampleSeed) {
    this(relation, figures, sampleSeed, ActionThresholds.DEFAULT);
  }

  /** A partitioned table's row summing {@code leaves} (sampled independently). */
  public static RelationReport rollup(Relation table, List<RelationReport> leaves) {
    return new RelationReport(table, RelationFigures.sum(leaves.stream().map(RelationReport::figures).toList()),
        leaves.stream().map(RelationReport::sampleSeed).filter(Objects::nonNull).findFirst().orElse(null),
        leaves.size(), Advice.PARTITIONED);
  }

  /** Whether this row sums a partitioned table's partitions (which have rows of their own). */
  public boolean isRollup() {
    return relation.kind() == RelKind.PARTITIONED_TABLE;
  }

  /** Estimated dead plus free bytes: what the table wastes, the report's sort key. */
  public double wastedBytes() {
    return figures.wastedBytes().value();
  }
}
