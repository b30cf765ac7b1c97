package io.pgbloat.scan;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that count a compressed backup's pages for the pass, each with its own
 * {@link PassPageCounter}: the thread decoding the archive and the one reading it give the
 * pages out in batches, and count no page themselves, so that counting uses every core the
 * decoding leaves.
 */
final class PassWorkers implements AutoCloseable {
  private final ExecutorService threads;
  /** The counters not in use: as many as threads, so a batch always finds one. */
  private final BlockingQueue<PassPageCounter> idle;

  PassWorkers(int count) {
    AtomicInteger made = new AtomicInteger();
    threads = Executors.newFixedThreadPool(count, work -> {
      Thread thread = new Thread(work, "pgbloat-pass-count-" + made.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    idle = new ArrayBlockingQueue<>(count);
    for (int i = 0; i < count; i++) {
      idle.add(new PassPageCounter());
    }
  }

  /** Counts {@code pages[0, n)}, blocks {@code firstBlock} on of their relation fork. */
  Future<PassPage[]> count(byte[][] pages, int n, long firstBlock) {
    return threads.submit(() -> {
      PassPageCounter counter = idle.take();
      try {
        PassPage[] counted = new PassPage[n];
        for (int i = 0; i < n; i++) {
          counted[i] = counter.count(pages[i], firstBlock + i);
        }
        return counted;
      } finally {
        idle.add(counter);
      }
    });
  }

  @Override
  public void close() {
    threads.shutdownNow();
  }
}
