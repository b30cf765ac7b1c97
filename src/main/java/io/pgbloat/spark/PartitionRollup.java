package io.pgbloat.spark;

import io.pgbloat.catalog.PartitionedRelation;
import io.pgbloat.catalog.Relation;
import io.pgbloat.catalog.RelationId;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A partitioned table's or index's row to be made from its leaves' rows once they are counted.
 *
 * @param relation the partitioned table or index
 * @param members its leaves among the plan's relations (or indexes), by their number there
 *     ({@link AnalysisPlan})
 */
public record PartitionRollup(Relation relation, List<Integer> members) implements Serializable {
  public PartitionRollup {
    members = List.copyOf(members);
  }

  /** Per partitioned relation, its rollup of its leaves among {@code relations} (those measured and kept). */
  static List<PartitionRollup> of(List<PartitionedRelation> partitioned, List<Relation> relations) {
    Map<RelationId, Integer> numbers = new HashMap<>();
    for (int i = 0; i < relations.size(); i++) {
      numbers.put(relations.get(i).id(), i);
    }
    List<PartitionRollup> rollups = new ArrayList<>();
    for (PartitionedRelation p : partitioned) {
      List<Integer> members = new ArrayList<>();
      for (RelationId leaf : p.leafIds()) {
        Integer i = numbers.get(leaf);
        if (i != null) {
          members.add(i);
        }
      }
      rollups.add(new PartitionRollup(p.relation(), members));
    }
    return rollups;
  }
}
