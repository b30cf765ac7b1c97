package io.pgbloat.io;

import java.util.concurrent.atomic.AtomicLong;

/** Reads issued and blocks read by a task's streams; updated from its I/O threads. */
public final class ReadCounters {
  private final AtomicLong reads = new AtomicLong();
  private final AtomicLong blocks = new AtomicLong();

  void add(int blocksRead) {
    reads.incrementAndGet();
    blocks.addAndGet(blocksRead);
  }

  public long reads() {
    return reads.get();
  }

  public long blocks() {
    return blocks.get();
  }
}
