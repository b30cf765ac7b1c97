package io.pgbloat.stats;

import io.pgbloat.catalog.Relation;
import java.io.Serializable;

/** One row of the report: a relation and its figures. */
public record RelationReport(Relation relation, RelationFigures figures) implements Serializable {
  /** dead plus free bytes: what the table wastes, the report's sort key. */
  public long wastedBytes() {
    return figures.deadTupleLen() + figures.freeSpace();
  }
}
