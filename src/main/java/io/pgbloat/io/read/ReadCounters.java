package io.pgbloat.io.read;

import java.util.concurrent.atomic.AtomicLong;

/** Reads issued and blocks read by a task's streams; updated from its I/O threads. */
public final class ReadCounters {
  private final AtomicLong reads = new AtomicLong();
  private final AtomicLong blocks = new AtomicLong();
  private final AtomicLong gapBlocks = new AtomicLong();

  /** One read: {@code blocksRead} blocks handed out, {@code gapBlocksRead} read only to join two reads. */
  void add(int blocksRead, int gapBlocksRead) {
    reads.incrementAndGet();
    blocks.addAndGet(blocksRead);
    gapBlocks.addAndGet(gapBlocksRead);
  }

  /** The figures so far. */
  public ReadTotals totals() {
    return new ReadTotals(blocks.get(), gapBlocks.get(), reads.get());
  }

  public long reads() {
    return reads.get();
  }

  /** Blocks read and handed out. */
  public long blocks() {
    return blocks.get();
  }

  /** Blocks read between asked-for ones, and dropped ({@link IoSettings#gapLimit}). */
  public long gapBlocks() {
    return gapBlocks.get();
  }
}
