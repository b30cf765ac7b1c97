package io.pgbloat.stats;

import io.pgbloat.catalog.Relation;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * One row of the report: a relation and its figures.
 *
 * @param sampleSeed the seed its sample was drawn with, or null when every block was read
 *     by a full scan
 * @param partitions for a partitioned table's rollup, the leaf partitions its figures sum; 0
 *     for a relation of its own
 */
public record RelationReport(Relation relation, RelationFigures figures, Long sampleSeed, int partitions)
    implements Serializable {

  /** A relation's own row. */
  public RelationReport(Relation relation, RelationFigures figures, Long sampleSeed) {
    this(relation, figures, sampleSeed, 0);
  }

  /** A partitioned table's row summing {@code leaves} (sampled independently). */
  public static RelationReport rollup(Relation table, List<RelationReport> leaves) {
    return new RelationReport(table, RelationFigures.sum(leaves.stream().map(RelationReport::figures).toList()),
        leaves.stream().map(RelationReport::sampleSeed).filter(Objects::nonNull).findFirst().orElse(null),
        leaves.size());
  }

  /** Whether this row sums a partitioned table's partitions (which have rows of their own). */
  public boolean isRollup() {
    return relation.kind() == 'p';
  }

  /** Estimated dead plus free bytes: what the table wastes, the report's sort key. */
  public double wastedBytes() {
    return figures.wastedBytes().value();
  }
}
