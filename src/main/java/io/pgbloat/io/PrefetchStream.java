package io.pgbloat.io;

import io.pgbloat.page.PageHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;

/**
 * The pages of one relation fork's sorted blocks, in order, read ahead: adjacent blocks are
 * merged into reads of up to B blocks, and up to K reads are kept in flight on the task's
 * I/O threads, the way PostgreSQL's read stream does it ({@code src/backend/storage/aio/
 * read_stream.c}). With K = 1 every read happens synchronously in the caller's thread, so
 * the gain of K can be measured. Memory is bounded: K + 1 buffers of B blocks, taken from the
 * task's {@link ReadBuffers} and given back when the stream is done.
 *
 * <p>As in read_stream.c, the look-ahead distance adapts: it starts at one read, doubles (up
 * to K) after each read that went to the device, and shrinks by one after each page-cache hit
 * (a read faster than {@link #MISS_NANOS}). At distance one the stream reads in the caller's
 * thread, as K = 1 does. Reads served from the page cache, or by the kernel's readahead in a
 * full scan, thus cost no hand-off to an I/O thread (about 5 µs a block, measured); a cold
 * random sample ramps up to K within a few reads.
 *
 * <p>A read that fails is tried once more; if it fails again its blocks come back with the
 * failure (file, blocks, cause) and the stream goes on with the next read.
 */
public final class PrefetchStream {
  private final FileStore files;
  private final SegmentedFile file;
  private final IoSettings settings;
  private final ExecutorService io;
  private final ReadCounters counters;
  private final Deque<CombinedRead> pending = new ArrayDeque<>();
  private final Deque<CompletableFuture<Completed>> inFlight = new ArrayDeque<>();
  private final ReadBuffers buffers;
  private final Deque<ByteBuffer> freeBuffers = new ArrayDeque<>();
  private boolean done; // every block handed out and the buffers given back
  private Completed current;
  private int consumed; // of current's blocks handed out
  private int wantedRun; // where the next of them is: a pair of current.request().wanted(), and in it
  private int inWantedRun;
  private int distance = 1; // reads to keep in flight now, 1..K; 1 reads in the caller's thread
  /** A read slower than this came from the device, not from the page cache (hits take ~3 µs). */
  static final long MISS_NANOS = 50_000;

  /**
   * A finished read; {@code nanos} is how long the read itself took, on whichever thread.
   * {@code failures} is null when every block was read, else the reason per block (null for
   * the blocks that were read after all).
   */
  private record Completed(CombinedRead request, ByteBuffer buffer, String[] failures, long nanos) {}

  /**
   * @param io the task's I/O threads; null when K = 1
   * @param buffers the task's buffers, lent to this stream until it is done
   * @param counters receives the number of reads and blocks read
   */
  PrefetchStream(FileStore files, SegmentedFile file, BlockList blocks, IoSettings settings, ExecutorService io,
      ReadBuffers buffers, ReadCounters counters) {
    this.files = files;
    this.buffers = buffers;
    this.file = file;
    this.settings = settings;
    this.io = io;
    this.counters = counters;
    pending.addAll(CombinedRead.of(blocks, settings.combineLimit(), settings.gapLimit()));
    // Buffers as large as the largest read, as many as reads can be in flight plus the one
    // being handed out: a one-block table costs two 8 kB buffers, not K + 1 of B blocks. The
    // buffers also bound the blocks in flight (IoSettings.inFlightBlocks): K small random
    // reads, but only a few large ones.
    int largest = pending.stream().mapToInt(CombinedRead::count).max().orElse(1);
    int inFlight = Math.max(1, Math.min(settings.concurrency(), settings.inFlightBlocks() / largest));
    int lent = Math.min(pending.size(), inFlight) + 1;
    for (int i = 0; i < lent; i++) {
      freeBuffers.add(buffers.take(largest * PageHeader.BLCKSZ));
    }
    fill();
  }

  public boolean hasNext() {
    boolean more = (current != null && consumed < current.request().handedOut()) || !inFlight.isEmpty()
        || !pending.isEmpty();
    if (!more && !done) {
      done = true;
      if (current != null) {
        freeBuffers.add(current.buffer());
        current = null;
      }
      freeBuffers.forEach(buffers::give);
      freeBuffers.clear();
    }
    return more;
  }

  /** The next block, in block order. Its bytes are valid until the next call. */
  public BlockRead next() {
    if (current == null || consumed == current.request().handedOut()) {
      if (current != null) {
        freeBuffers.add(current.buffer());
      }
      current = take();
      consumed = 0;
      wantedRun = 0;
      inWantedRun = 0;
      fill();
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

  /** Starts reads until K are in flight (none ahead with K = 1: reads happen on demand). */
  private void fill() {
    if (io == null || distance < 2) {
      return;
    }
    while (inFlight.size() < distance && !pending.isEmpty() && !freeBuffers.isEmpty()) {
      CombinedRead request = pending.poll();
      ByteBuffer buffer = freeBuffers.poll();
      inFlight.add(CompletableFuture.supplyAsync(() -> read(request, buffer), io));
    }
  }

  private Completed take() {
    Completed done;
    if (io == null || inFlight.isEmpty()) {
      done = read(pending.poll(), freeBuffers.poll());
    } else {
      done = await(inFlight.poll());
    }
    if (io != null) {
      distance = done.nanos() > MISS_NANOS
          ? Math.min(settings.concurrency(), distance * 2)
          : Math.max(1, distance - 1);
    }
    return done;
  }

  private Completed await(CompletableFuture<Completed> head) {
    try {
      return head.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading " + file.relpath(), e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("reading " + file.relpath() + " failed", e.getCause());
    }
  }

  private Completed read(CombinedRead r, ByteBuffer buffer) {
    long started = System.nanoTime();
    String failure = readTwice(r.first(), r.count(), buffer, 0);
    if (failure == null) {
      counters.add(r.handedOut(), r.count() - r.handedOut());
      return new Completed(r, buffer, null, System.nanoTime() - started);
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
    return new Completed(r, buffer, failures, System.nanoTime() - started);
  }

  /** Reads blocks, trying once more on failure; null when read, else why not. */
  private String readTwice(long first, int count, ByteBuffer buffer, int offset) {
    String failure = null;
    for (int attempt = 1; attempt <= 2; attempt++) {
      try {
        file.readBlocks(files, first, count, buffer, offset);
        return null;
      } catch (IOException | RuntimeException e) {
        failure = "read of " + (count == 1 ? "block " + first : "blocks " + first + ".." + (first + count - 1))
            + " of " + file.relpath() + " failed twice (" + e.getClass().getSimpleName() + ": " + e.getMessage()
            + "); the file changed or vanished since the plan was made, or cannot be read";
      }
    }
    return failure;
  }
}
