package io.pgbloat.stats;

import io.pgbloat.catalog.Relation;
import java.io.Serializable;

/**
 * One row of the report: a relation and its figures.
 *
 * @param sampleSeed the seed its sample was drawn with, or null when every block was read
 *     by a full scan
 */
public record RelationReport(Relation relation, RelationFigures figures, Long sampleSeed) implements Serializable {
  /** Estimated dead plus free bytes: what the table wastes, the report's sort key. */
  public double wastedBytes() {
    return figures.deadTupleLen().value() + figures.freeSpace().value();
  }
}
