package io.pgbloat.sample;

import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.SegmentedFile;
import java.io.Serializable;
import java.util.Arrays;

/**
 * The blocks of one relation that one range reads.
 *
 * @param relation the relation's index in the plan
 * @param file where its blocks are
 * @param blocks which of its blocks this range reads
 * @param strata per block (by position in {@code blocks}) its {@link Stratum} ordinal, or null
 *     when all are {@link Stratum#TAKE_ALL}
 * @param toast the relation is a TOAST table, whose pages are also counted as chunks
 */
public record RelationSlice(int relation, SegmentedFile file, BlockList blocks, byte[] strata, boolean toast)
    implements Serializable {

  /** The slice reading {@code sample} of relation {@code relation}, a TOAST table if {@code toast}. */
  public static RelationSlice of(int relation, SegmentedFile file, RelationSample sample, boolean toast) {
    return new RelationSlice(relation, file, sample.sample(), sample.strata(), toast);
  }

  /** The stratum of the block at {@code position}. */
  public Stratum stratumAt(long position) {
    return Stratum.at(strata, position);
  }

  /** Splits off the first {@code count} blocks: [head, tail]. */
  public RelationSlice[] split(long count) {
    BlockList[] parts = blocks.split(count);
    int cut = (int) parts[0].size();
    return new RelationSlice[] {
      new RelationSlice(relation, file, parts[0], strata == null ? null : Arrays.copyOfRange(strata, 0, cut), toast),
      new RelationSlice(relation, file, parts[1], strata == null ? null : Arrays.copyOfRange(strata, cut, strata.length),
          toast)
    };
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RelationSlice s && relation == s.relation && file.equals(s.file) && blocks.equals(s.blocks)
        && Arrays.equals(strata, s.strata) && toast == s.toast;
  }

  @Override
  public int hashCode() {
    return 31 * relation + blocks.hashCode();
  }
}
