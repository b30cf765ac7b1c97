package io.pgbloat.sample;

import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.page.TableColumns;
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
 * @param columns a table's columns, as a rewrite forms its rows again; {@link TableColumns#AS_STORED}
 *     for any other relation
 */
public record RelationSlice(int relation, SegmentedFile file, BlockList blocks, byte[] strata, boolean toast,
    TableColumns columns) implements Serializable {

  /** The slice of all of {@code blocks} of an index of relation {@code relation}, its strata {@code strata}. */
  public static RelationSlice ofIndex(int relation, SegmentedFile file, BlockList blocks, byte[] strata) {
    return new RelationSlice(relation, file, blocks, strata, false, TableColumns.AS_STORED);
  }

  /**
   * The slice reading {@code sample} of relation {@code relation} of {@code columns}, a TOAST
   * table if {@code toast}.
   */
  public static RelationSlice of(int relation, SegmentedFile file, RelationSample sample, boolean toast,
      TableColumns columns) {
    return new RelationSlice(relation, file, sample.sample(), sample.strata(), toast, columns);
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
      new RelationSlice(relation, file, parts[0], strata == null ? null : Arrays.copyOfRange(strata, 0, cut), toast,
          columns),
      new RelationSlice(relation, file, parts[1], strata == null ? null : Arrays.copyOfRange(strata, cut, strata.length),
          toast, columns)
    };
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RelationSlice s && relation == s.relation && file.equals(s.file) && blocks.equals(s.blocks)
        && Arrays.equals(strata, s.strata) && toast == s.toast && columns.equals(s.columns);
  }

  @Override
  public int hashCode() {
    return 31 * relation + blocks.hashCode();
  }
}
