package io.pgbloat.spark;

import io.pgbloat.catalog.Relation;
import java.io.Serializable;
import java.util.List;

/**
 * A partitioned table's or index's row to be made from its leaves' rows once they are counted.
 *
 * @param relation the partitioned table or index
 * @param members its leaves among the plan's relations (or indexes), by their index there
 */
public record PartitionRollup(Relation relation, List<Integer> members) implements Serializable {
  public PartitionRollup {
    members = List.copyOf(members);
  }
}
