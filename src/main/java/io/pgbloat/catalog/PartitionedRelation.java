package io.pgbloat.catalog;

import java.io.Serializable;
import java.util.List;

/**
 * A partitioned table or partitioned index ({@link RelKind}), neither with storage of its
 * own, and the leaves under it at any depth whose figures its rollup sums.
 *
 * @param relation the partitioned relation, with an empty relpath
 * @param leaves the OIDs of its leaves through partitioned sub-partitions: tables (with heap
 *     storage) under a partitioned table, their indexes under a partitioned index
 */
public record PartitionedRelation(Relation relation, List<Long> leaves) implements Serializable {
  public PartitionedRelation {
    leaves = List.copyOf(leaves);
  }

  /** Which relations its leaves are: in its database. */
  public List<RelationId> leafIds() {
    return leaves.stream().map(leaf -> new RelationId(relation.database(), leaf)).toList();
  }
}
