package io.pgbloat.catalog;

import java.io.Serializable;
import java.util.List;

/**
 * A partitioned table (relkind 'p', no storage of its own) and the leaf partitions under it at
 * any depth, whose figures its rollup sums.
 *
 * @param table the partitioned table, with an empty relpath
 * @param leaves the OIDs of its leaf partitions (tables, relkind 'r'), through partitioned
 *     sub-partitions
 */
public record PartitionedTable(Relation table, List<Long> leaves) implements Serializable {
  public PartitionedTable {
    leaves = List.copyOf(leaves);
  }
}
