package io.pgbloat.io.read;

import io.pgbloat.error.PgBloatException;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.page.PageHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The pages of one relation fork's sorted blocks, in order, read ahead: adjacent blocks are
 * merged into reads of up to B blocks ({@link CombinedRead}), and K I/O threads of the task
 * read ahead of the consumer, as PostgreSQL's read stream keeps reads ahead of its consumer
 * ({@code src/backend/storage/aio/read_stream.c}). Without I/O threads (K = 1, a store read
 * at random) every read happens synchronously in the caller's thread, so the gain of K can be
 * measured; a store that decodes in order has one I/O thread, reading in order ahead of it. Memory is bounded:
 * at most {@link IoSettings#inFlightBlocks} in buffers (and one read more), taken from the
 * task's {@link ReadBuffers} and given back when the stream is done.
 *
 * <p>The I/O threads pull their work: each takes a free buffer, then the next read no thread
 * has claimed, reads, and goes on, so a read costs no hand-off from the consumer; the consumer
 * only waits when the read it needs next is not done yet, and frees a read's buffer when it
 * moves past it. Reads are claimed in order and only with a buffer in hand, so the read the
 * consumer waits for always has one (no deadlock), and with N buffers read i reuses the result
 * slot of read i - N, long consumed. Up to {@link #WINDOW_PER_READER} × K reads may be done
 * ahead: one slow read then holds up only the consumer, not the other threads (with only K + 1
 * buffers, the reads at the device fell well short of K: docs/speed.md).
 *
 * <p>A read that fails is tried once more; if it fails again its blocks come back with the
 * failure (file, blocks, cause) and the stream goes on with the next read. A failure the store
 * typed as the tool's own (credentials refused, a store throttling or unreachable) says nothing
 * of the file: it is thrown to the consumer, and ends the task.
 */
public final class PrefetchStream {
  /** Reads done ahead of the consumer, per I/O thread, at most (within IoSettings.inFlightBlocks). */
  static final int WINDOW_PER_READER = 4;
  private final FileStore files;
  private final SegmentedFile file;
  private final ReadCounters counters;
  private final ReadBuffers pool;
  private final CombinedRead[] reads;
  /** This stream's buffers, given back to {@link #pool} when it is done. */
  private final ByteBuffer[] lent;
  /** With K > 1: the buffers no read holds, the results by read number modulo their count. */
  private final BlockingQueue<ByteBuffer> free;
  private final AtomicReferenceArray<CompletableFuture<Completed>> results;
  private final AtomicInteger nextToClaim = new AtomicInteger();
  private final CountDownLatch readersDone;
  private int nextToTake; // the read the consumer takes next
  private boolean done; // every block handed out and the buffers given back
  private Completed current;
  private int consumed; // of current's blocks handed out
  private int wantedRun; // where the next of them is: a pair of current.request().wanted(), and in it
  private int inWantedRun;

  /**
   * A finished read. {@code failures} is null when every block was read, else the reason per
   * block (null for the blocks that were read after all).
   */
  private record Completed(CombinedRead request, ByteBuffer buffer, String[] failures) {}

  /**
   * @param io the task's I/O threads (at least K of them, none busy); null for none ({@link BlockReader})
   * @param pool the task's buffers, lent to this stream until it is done
   * @param counters receives the number of reads and blocks read
   */
  PrefetchStream(FileStore files, SegmentedFile file, BlockList blocks, IoSettings settings, ExecutorService io,
      ReadBuffers pool, ReadCounters counters) {
    this.files = files;
    this.file = file;
    this.pool = pool;
    this.counters = counters;
    List<CombinedRead> planned = CombinedRead.of(blocks, settings.combineLimit(), settings.gapLimit());
    this.reads = planned.toArray(CombinedRead[]::new);
    // Buffers as large as the largest read, as many as reads can be ahead plus the one being
    // handed out: a one-block table costs two 8 kB buffers, not many of B blocks. The buffers
    // also bound the blocks ahead (IoSettings.inFlightBlocks): many small random reads, but
    // only a few large ones.
    // rounded up to a power of two blocks (within B), so that streams of nearly the same reads
    // reuse each other's buffers from the pool rather than dropping them
    int largest = Math.min(settings.combineLimit(),
        Integer.highestOneBit(Math.max(1, planned.stream().mapToInt(CombinedRead::count).max().orElse(1)) * 2 - 1));
    int inFlight = io == null ? 0
        : Math.max(1, Math.min(WINDOW_PER_READER * settings.concurrency(), settings.inFlightBlocks() / largest));
    this.lent = new ByteBuffer[reads.length == 0 ? 0 : Math.min(reads.length, inFlight) + 1];
    for (int i = 0; i < lent.length; i++) {
      lent[i] = pool.take(largest * PageHeader.BLCKSZ);
    }
    if (io == null || reads.length == 0) {
      this.free = null;
      this.results = null;
      this.readersDone = new CountDownLatch(0);
      return;
    }
    this.free = new ArrayBlockingQueue<>(lent.length, false, List.of(lent));
    this.results = new AtomicReferenceArray<>(lent.length);
    for (int i = 0; i < lent.length; i++) {
      results.set(i, new CompletableFuture<>());
    }
    int readers = Math.min(settings.concurrency(), reads.length);
    this.readersDone = new CountDownLatch(readers);
    for (int i = 0; i < readers; i++) {
      io.execute(this::readAhead);
    }
  }

  public boolean hasNext() {
    boolean more = (current != null && consumed < current.request().handedOut()) || nextToTake < reads.length;
    if (!more && !done) {
      done = true;
      giveBuffersBack();
    }
    return more;
  }

  /** The next block, in block order. Its bytes are valid until the next call. */
  public BlockRead next() {
    if (current == null || consumed == current.request().handedOut()) {
      if (current != null) {
        ByteBuffer done = current.buffer();
        current = null; // freed once: a take() that throws must not leave it to be freed again
        if (free != null) {
          free.add(done);
        }
      }
      current = take();
      consumed = 0;
      wantedRun = 0;
      inWantedRun = 0;
    }
    int at = nextWanted();
    long block = current.request().first() + at;
    String failure = current.failures() == null ? null : current.failures()[at];
    return failure == null
        ? new BlockRead(block, current.buffer(), at * PageHeader.BLCKSZ, null)
        : new BlockRead(block, null, 0, failure);
  }

  /** The offset in the current read of the next block to hand out. */
  private int nextWanted() {
    consumed++;
    int[] wanted = current.request().wanted();
    if (wanted == null) {
      return consumed - 1;
    }
    int at = wanted[2 * wantedRun] + inWantedRun;
    if (++inWantedRun == wanted[2 * wantedRun + 1]) {
      wantedRun++;
      inWantedRun = 0;
    }
    return at;
  }

  /** The next read's result: read now without I/O threads, else as an I/O thread finishes it. */
  private Completed take() {
    int i = nextToTake++;
    if (free == null) {
      return read(reads[i], lent[0]);
    }
    int slot = i % lent.length;
    Completed done = await(results.get(slot));
    results.set(slot, new CompletableFuture<>()); // for read i + lent.length, which cannot start before
    return done;
  }

  /** One I/O thread's work: a free buffer, then the next unclaimed read, until none is left. */
  private void readAhead() {
    try {
      while (true) {
        ByteBuffer buffer = free.take();
        int i = nextToClaim.getAndIncrement();
        if (i >= reads.length) {
          free.add(buffer); // for the other threads to find the end too
          return;
        }
        CompletableFuture<Completed> result = results.get(i % lent.length);
        try {
          result.complete(read(reads[i], buffer));
        } catch (Throwable t) {
          free.add(buffer); // no result holds it
          result.completeExceptionally(t);
        }
      }
    } catch (InterruptedException e) {
      // the task's I/O threads were stopped: the stream was left unfinished
    } finally {
      readersDone.countDown();
    }
  }

  /**
   * Stops reading ahead for a stream left unfinished, so that the task's next stream finds its
   * I/O threads free; once they have let go, its buffers go back to the pool.
   */
  void abandon() {
    if (done) {
      return;
    }
    done = true;
    nextToClaim.set(reads.length);
    if (free != null) {
      free.offer(ByteBuffer.allocate(0)); // wakes a thread waiting for a buffer; each lets the next through
      try {
        readersDone.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return; // the buffers are dropped, not shared with a thread that may still hold one
      }
    }
    for (ByteBuffer buffer : lent) {
      pool.give(buffer);
    }
  }

  /** Once every block is handed out: when the I/O threads have let go, the buffers go back to the pool. */
  private void giveBuffersBack() {
    if (free != null) {
      if (current != null) {
        free.add(current.buffer());
      }
      try {
        readersDone.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return; // the buffers are dropped, not shared with a thread that may still hold one
      }
    }
    current = null;
    for (ByteBuffer buffer : lent) {
      pool.give(buffer);
    }
  }

  private Completed await(CompletableFuture<Completed> result) {
    try {
      return result.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading " + file.relpath(), e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("reading " + file.relpath() + " failed", e.getCause());
    }
  }

  private Completed read(CombinedRead r, ByteBuffer buffer) {
    String failure = readTwice(r.first(), r.count(), buffer, 0);
    if (failure == null) {
      counters.add(r.handedOut(), r.count() - r.handedOut());
      return new Completed(r, buffer, null);
    }
    // The combined read failed (a file that shrank mid-run fails for all its blocks at once):
    // each block asked for alone, so that every block still there is counted and only the
    // rest are bad.
    String[] failures = new String[r.count()];
    if (r.count() == 1) {
      failures[0] = failure;
    } else {
      for (int i = 0; i < r.count(); i++) {
        if (r.isWanted(i)) {
          failures[i] = readTwice(r.first() + i, 1, buffer, i * PageHeader.BLCKSZ);
          if (failures[i] == null) {
            counters.add(1, 0);
          }
        }
      }
    }
    return new Completed(r, buffer, failures);
  }

  /** Reads blocks, trying once more on failure; null when read, else why not. */
  private String readTwice(long first, int count, ByteBuffer buffer, int offset) {
    String failure = null;
    for (int attempt = 1; attempt <= 2; attempt++) {
      try {
        file.readBlocks(files, first, count, buffer, offset);
        return null;
      } catch (PgBloatException e) {
        throw e; // the store's own failure (StoreAccessException), not this file's: it ends the run
      } catch (IOException | RuntimeException e) {
        failure = "read of " + (count == 1 ? "block " + first : "blocks " + first + ".." + (first + count - 1))
            + " of " + file.relpath() + " failed twice (" + e.getClass().getSimpleName() + ": " + e.getMessage()
            + "); the file changed or vanished since the plan was made, or cannot be read";
      }
    }
    return failure;
  }
}
