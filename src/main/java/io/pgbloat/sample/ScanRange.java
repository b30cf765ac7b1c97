package io.pgbloat.sample;

import java.io.Serializable;
import java.util.List;

/**
 * One unit of parallel work: slices of one or more relations, in relation then block order.
 * Many small tables share a range; a large one spreads over many.
 *
 * @param index position in the plan
 * @param slices what to read
 */
public record ScanRange(int index, List<RelationSlice> slices) implements Serializable {
  public ScanRange {
    slices = List.copyOf(slices);
  }

  public long blocks() {
    return slices.stream().mapToLong(s -> s.blocks().size()).sum();
  }
}
