package io.pgbloat.sample;

import io.pgbloat.io.read.BlockList;
import java.io.Serializable;
import java.util.Arrays;

/**
 * The blocks chosen from one relation, in increasing order, each tagged with its
 * {@link Stratum}, and the size of every stratum.
 *
 * @param blocks N, the relation's length in blocks
 * @param population per stratum (by ordinal), its number of blocks; they sum to N
 * @param planned per stratum, the number of blocks chosen from it
 * @param sample the chosen blocks
 * @param strata per chosen block (by position in {@code sample}), its stratum ordinal; null
 *     when every block is {@link Stratum#TAKE_ALL}
 */
public record RelationSample(long blocks, long[] population, long[] planned, BlockList sample, byte[] strata)
    implements Serializable {

  /** Every block, in one take-all stratum: the full scan. */
  public static RelationSample everything(long blocks) {
    long[] population = new long[Stratum.COUNT];
    population[Stratum.TAKE_ALL.ordinal()] = blocks;
    return new RelationSample(blocks, population, population.clone(), BlockList.range(0, blocks), null);
  }

  /** The stratum of the chosen block at {@code position} of {@code sample}. */
  public Stratum stratumAt(long position) {
    return Stratum.at(strata, position);
  }

  public long sampledBlocks() {
    return sample.size();
  }

  /** Whether every block is read: the figures are then exact. */
  public boolean isComplete() {
    return sample.size() == blocks;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RelationSample r && blocks == r.blocks && Arrays.equals(population, r.population)
        && Arrays.equals(planned, r.planned) && sample.equals(r.sample) && Arrays.equals(strata, r.strata);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(blocks) * 31 + sample.hashCode();
  }
}
