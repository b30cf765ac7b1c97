package io.pgbloat.changes;

import io.pgbloat.io.read.BlockList;
import java.util.Arrays;

/**
 * What a span of WAL did to one fork ({@code src/include/common/blkreftable.h}): the blocks it
 * modified, and its limit block, the shortest length the fork had within the span (0 when it
 * was created or dropped, the new length when it was truncated; {@link #NO_LIMIT} when neither
 * happened). Every block at or past the limit is to be taken as changed, whether listed or not.
 */
public record ForkChanges(RelationFork fork, long limitBlock, BlockList modified) {
  /** InvalidBlockNumber: the fork was neither created, dropped nor truncated in the span. */
  public static final long NO_LIMIT = 0xFFFF_FFFFL;

  /** Whether {@code block} may differ at the end of the span from what it was at its start. */
  public boolean changed(long block) {
    return block >= limitBlock || modified.contains(block);
  }

  /** The changes of two spans one after the other: the lower limit, and every block either modified. */
  public ForkChanges then(ForkChanges later) {
    long[] both = new long[(int) (modified.size() + later.modified.size())];
    int[] n = {0};
    modified.forEach(b -> both[n[0]++] = b);
    later.modified.forEach(b -> both[n[0]++] = b);
    Arrays.sort(both);
    return new ForkChanges(fork, Math.min(limitBlock, later.limitBlock), BlockList.of(distinct(both)));
  }

  private static long[] distinct(long[] sorted) {
    int kept = 0;
    for (int i = 0; i < sorted.length; i++) {
      if (i == 0 || sorted[i] != sorted[i - 1]) {
        sorted[kept++] = sorted[i];
      }
    }
    return Arrays.copyOf(sorted, kept);
  }
}
