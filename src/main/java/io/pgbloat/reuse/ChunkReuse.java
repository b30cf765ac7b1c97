package io.pgbloat.reuse;

import io.pgbloat.changes.ForkChanges;
import io.pgbloat.io.read.BlockList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run reuses of one relation file and what it reads again: a kept chunk is reused where
 * the file still has it whole (of the same length) and no block of it changed since the kept
 * run's copy ({@link ForkChanges#changed}: modified, or at or past the fork's limit block).
 * Every other block is read.
 *
 * @param reused the chunks reused
 * @param toRead the blocks to read
 */
public record ChunkReuse(List<KeptChunk> reused, BlockList toRead) {
  public ChunkReuse {
    reused = List.copyOf(reused);
  }

  /** Blocks reused. */
  public long reusedBlocks() {
    return reused.stream().mapToLong(KeptChunk::blocks).sum();
  }

  /**
   * The reuse of {@code kept}'s chunks in a file of {@code blocks} blocks, cut in chunks of
   * {@code chunkBlocks}, that {@code changes} changed.
   */
  public static ChunkReuse of(long blocks, int chunkBlocks, KeptFile kept, ForkChanges changes) {
    long chunks = (blocks + chunkBlocks - 1) / chunkBlocks;
    boolean[] changed = changedChunks(chunks, chunkBlocks, changes);
    Map<Long, KeptChunk> byNumber = new HashMap<>();
    for (KeptChunk c : kept.chunks()) {
      byNumber.put(c.chunk(), c);
    }
    List<KeptChunk> reused = new ArrayList<>();
    BlockList.Builder read = new BlockList.Builder();
    for (long c = 0; c < chunks; c++) {
      long first = c * chunkBlocks;
      int length = (int) Math.min(chunkBlocks, blocks - first);
      KeptChunk k = byNumber.get(c);
      if (k != null && k.blocks() == length && !changed[(int) c]) {
        reused.add(k);
      } else {
        read.addRun(first, length);
      }
    }
    return new ChunkReuse(reused, read.build());
  }

  /** Per chunk, whether a block of it changed: one walk over the modified runs. */
  private static boolean[] changedChunks(long chunks, int chunkBlocks, ForkChanges changes) {
    boolean[] changed = new boolean[(int) chunks];
    for (long c = Math.min(chunks, changes.limitBlock() / chunkBlocks); c < chunks; c++) {
      changed[(int) c] = true; // holds the limit block, or lies past it
    }
    BlockList modified = changes.modified();
    for (int r = 0; r < modified.runCount(); r++) {
      long first = modified.runStart(r) / chunkBlocks;
      long last = (modified.runStart(r) + modified.runLength(r) - 1) / chunkBlocks;
      for (long c = first; c <= Math.min(last, chunks - 1); c++) {
        changed[(int) c] = true;
      }
    }
    return changed;
  }
}
