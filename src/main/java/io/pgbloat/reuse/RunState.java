package io.pgbloat.reuse;

import io.pgbloat.changes.CopyPoint;
import io.pgbloat.stats.IndexMeasure;
import io.pgbloat.stats.Measure;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What a run keeps for the next one: the copy it read ({@link CopyPoint}), the chunk length, and
 * per relation file the sums of its chunks ({@link KeptFile}). A state is read only where its
 * format version and its sums' layout (the measures, in order) are this tool's own: an older
 * state is refused, never misread.
 *
 * @param formatVersion {@link #FORMAT_VERSION} of the tool that wrote it
 * @param sumsLayout {@link #SUMS_LAYOUT} of the tool that wrote it
 * @param copy the copy the run read
 * @param chunkBlocks blocks per chunk, a power of two, so that a chunk never spans two segments
 * @param files the files whose chunks were kept
 */
public record RunState(int formatVersion, String sumsLayout, CopyPoint copy, int chunkBlocks, List<KeptFile> files)
    implements Serializable {
  /** The state's layout; raised whenever what a state holds, or how, changes. */
  public static final int FORMAT_VERSION = 1;
  /** The measures a table's and an index's sums hold, in order: the meaning of their longs. */
  public static final String SUMS_LAYOUT = Stream.concat(Arrays.stream(Measure.values()).map(Enum::name),
      Arrays.stream(IndexMeasure.values()).map(Enum::name)).collect(Collectors.joining(","));
  /** The chunk length a run keeps unless told otherwise: 1 MB of blocks. */
  public static final int DEFAULT_CHUNK_BLOCKS = 128;

  public RunState {
    files = List.copyOf(files);
    if (chunkBlocks <= 0 || Integer.bitCount(chunkBlocks) != 1) {
      throw new IllegalArgumentException("a chunk of " + chunkBlocks + " blocks; it must be a power of two");
    }
  }

  /** A state of this tool's format. */
  public static RunState of(CopyPoint copy, int chunkBlocks, List<KeptFile> files) {
    return new RunState(FORMAT_VERSION, SUMS_LAYOUT, copy, chunkBlocks, files);
  }

  /** Why this tool cannot read this state, in one line; null when it can. */
  public String unreadable() {
    if (formatVersion != FORMAT_VERSION) {
      return "the state is of format " + formatVersion + " and this tool reads format " + FORMAT_VERSION
          + " only; it was written by another version of pgbloat-spark";
    }
    if (!sumsLayout.equals(SUMS_LAYOUT)) {
      return "the state's sums hold other measures than this tool's; it was written by another version of pgbloat-spark";
    }
    return null;
  }
}
