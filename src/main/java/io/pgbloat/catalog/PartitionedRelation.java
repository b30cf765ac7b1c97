package io.pgbloat.catalog;

import java.io.Serializable;
import java.util.List;

/**
 * A partitioned table (relkind 'p') or partitioned index ('I'), neither with storage of its
 * own, and the leaves under it at any depth whose figures its rollup sums.
 *
 * @param relation the partitioned relation, with an empty relpath
 * @param leaves the OIDs of its leaves through partitioned sub-partitions: tables (relkind
 *     'r') under a partitioned table, their indexes ('i') under a partitioned index
 */
public record PartitionedRelation(Relation relation, List<Long> leaves) implements Serializable {
  public PartitionedRelation {
    leaves = List.copyOf(leaves);
  }
}
