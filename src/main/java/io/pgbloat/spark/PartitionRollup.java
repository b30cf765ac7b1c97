package io.pgbloat.spark;

import io.pgbloat.catalog.Relation;
import java.io.Serializable;
import java.util.List;

/**
 * A partitioned table's row to be made from its leaf partitions' rows once they are counted.
 *
 * @param table the partitioned table (relkind 'p')
 * @param members its leaf partitions among the plan's relations, by their index there
 */
public record PartitionRollup(Relation table, List<Integer> members) implements Serializable {
  public PartitionRollup {
    members = List.copyOf(members);
  }
}
