package io.pgbloat.changes;

import io.pgbloat.io.read.BlockList;

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
    return new ForkChanges(fork, Math.min(limitBlock, later.limitBlock), modified.union(later.modified));
  }
}
