package io.pgbloat.reuse;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The exact sums a full scan counted over one chunk of a relation file's blocks, every page of
 * it read, none bad, none counted on an unsettled answer: what a later run may reuse.
 *
 * @param chunk its number: it covers blocks [chunk · chunkBlocks, chunk · chunkBlocks + blocks)
 * @param blocks its length, chunkBlocks but for a file's last chunk
 * @param sums a table's {@code PartialSums.toLongs} or an index's {@code IndexPageSums.toLongs}
 * @param bins a table's good pages per dead-fraction bin ({@code DeadFractionHistogram}); empty
 *     for an index
 */
public record KeptChunk(long chunk, int blocks, long[] sums, long[] bins) implements Serializable {
  public KeptChunk {
    sums = sums.clone();
    bins = bins.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeptChunk k && chunk == k.chunk && blocks == k.blocks && Arrays.equals(sums, k.sums)
        && Arrays.equals(bins, k.bins);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(chunk) * 31 + Arrays.hashCode(sums);
  }
}
