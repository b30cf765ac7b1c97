package io.pgbloat.io.read;

import io.pgbloat.io.store.FileStore;
import io.pgbloat.io.store.StoreRequests;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One task's block reading: its K I/O threads (none when K = 1 but for a store that decodes
 * as it reads) and the
 * {@link PrefetchStream}s over them. Per task, not per JVM, so nothing is shared between
 * tasks; a task holds at most {@link IoSettings#inFlightBlocks} blocks of buffers and one read
 * more (8.5 MB by default).
 */
public final class BlockReader implements AutoCloseable {
  private final FileStore files;
  private final IoSettings settings;
  private final ExecutorService io;
  private final ReadBuffers buffers;
  private final ReadCounters counters = new ReadCounters();
  /** The store's requests when this reader was made: {@link #totals} gives what it sent since. */
  private final StoreRequests requestsBefore;
  private PrefetchStream last;

  /**
   * @param settings how to read; a store whose files decode as they are read
   *     ({@link FileStore#decodesInOrder}) is read with one read in flight whatever K says, by
   *     one I/O thread, so that it decodes ahead while the task counts
   */
  public BlockReader(FileStore files, IoSettings settings) {
    this.files = files;
    this.requestsBefore = files.requests();
    this.settings = files.decodesInOrder() ? settings.withConcurrency(1) : settings;
    this.buffers = new ReadBuffers(files);
    this.io = this.settings.concurrency() == 1 && !files.decodesInOrder() ? null : Executors.newFixedThreadPool(this.settings.concurrency(), r -> {
      Thread t = new Thread(r, "pgbloat-io");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * The pages of {@code blocks} of {@code file}, in order. One stream at a time: a stream left
   * unfinished stops reading ahead when the next is made.
   */
  public PrefetchStream stream(SegmentedFile file, BlockList blocks) {
    file.knowLengths(files);
    if (last != null) {
      last.abandon();
    }
    last = new PrefetchStream(files, file, blocks, settings, io, buffers, counters);
    return last;
  }

  public ReadCounters counters() {
    return counters;
  }

  /** What this reader's streams read, and what the store was asked for it. */
  public ReadTotals totals() {
    ReadTotals read = counters.totals();
    return new ReadTotals(read.blocks(), read.gapBlocks(), read.reads(), files.requests().since(requestsBefore));
  }

  @Override
  public void close() {
    if (io != null) {
      io.shutdownNow();
    }
  }
}
