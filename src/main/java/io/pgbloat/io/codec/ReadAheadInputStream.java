package io.pgbloat.io.codec;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A stream read ahead by a thread of its own, a chunk at a time: a decoder then decodes on one
 * core while its reader counts what came out on another, and reads from a disk that is reading
 * ahead of it meanwhile. Its chunks are made as the stream needs them, so a short stream costs
 * little. Close it to stop the thread.
 */
public final class ReadAheadInputStream extends InputStream {
  /** Each chunk read ahead: large enough that handing one over costs nothing beside decoding it. */
  static final int CHUNK = 1 << 20;
  /** Chunks read ahead at most: decoding runs this far ahead of the reader. */
  private static final int DEPTH = 8;
  /** Chunks in all: those read ahead, and the one being read. */
  private static final int CHUNKS = DEPTH + 1;
  /**
   * A side waiting for chunks (the reader for filled ones, the thread for free ones) is woken
   * once this many wait for it, or the stream has ended: a wake-up costs a system call and an
   * interrupt of the other core, so each hands over several chunks, not one. At most CHUNKS,
   * so that the side not waiting can always bring it that many.
   */
  private static final int WAKE_AT = DEPTH / 2;
  /**
   * How long the reader waits for WAKE_AT chunks before it takes what there is: a source that
   * stalls (a name node slow to answer) must not keep the chunks read before the stall from it.
   */
  private static final long READER_WAIT_NANOS = 2_000_000;
  /**
   * How long {@link #close} waits for a read under way before interrupting it: an interrupt
   * shuts a {@code FileChannel} for every thread reading that file, so only a read that hangs
   * (a name node that stopped answering) is interrupted.
   */
  private static final long CLOSE_WAIT_MILLIS = 10_000;

  /** A chunk read ahead; {@code length} 0 at the stream's end, {@code failure} when reading it failed. */
  private record Chunk(byte[] bytes, int length, Throwable failure) {}

  private final InputStream in;
  /** Guards what follows, to the thread. */
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition filledEnough = lock.newCondition();
  private final Condition freeEnough = lock.newCondition();
  private final ArrayDeque<Chunk> filled = new ArrayDeque<>(CHUNKS);
  private final ArrayDeque<byte[]> free = new ArrayDeque<>(CHUNKS);
  private boolean readerWaits;
  private boolean threadWaits;
  /** Chunks made so far. */
  private int made;
  private volatile boolean closed;
  private final Thread thread;
  /** The reader's own. */
  private Chunk current;
  private int position;

  /**
   * @param name what the thread does, first ("read base.tar.zst", "decode base.tar.zst"): the
   *     system shows a thread by the first 15 bytes of its name ("pgbloat decode ")
   */
  public ReadAheadInputStream(InputStream in, String name) {
    this.in = in;
    thread = new Thread(this::readAhead, "pgbloat " + name);
    thread.setDaemon(true);
    thread.start();
  }

  private void readAhead() {
    try {
      for (byte[] bytes; (bytes = freeChunk()) != null; ) {
        Chunk chunk;
        try {
          chunk = new Chunk(bytes, in.readNBytes(bytes, 0, CHUNK), null);
        } catch (Throwable e) { // an Error too: the reader must not wait for a chunk that never comes
          chunk = new Chunk(bytes, 0, e);
        }
        boolean last = chunk.length() < CHUNK; // the end, or a failure: the reader sees it after the chunks before it
        handOver(chunk, last);
        if (last) {
          return;
        }
      }
    } catch (InterruptedException e) {
      // closed
    }
  }

  /** A chunk to fill, made if none is free and fewer than CHUNKS are; null once closed. */
  private byte[] freeChunk() throws InterruptedException {
    lock.lock();
    try {
      if (free.isEmpty() && made < CHUNKS && !closed) {
        made++;
        return new byte[CHUNK];
      }
      while (free.isEmpty() && !closed) {
        threadWaits = true;
        freeEnough.await();
      }
      threadWaits = false;
      return closed ? null : free.poll();
    } finally {
      lock.unlock();
    }
  }

  private void handOver(Chunk chunk, boolean last) {
    lock.lock();
    try {
      filled.add(chunk);
      if (readerWaits && (filled.size() >= WAKE_AT || last)) {
        filledEnough.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public int read() throws IOException {
    return available() > 0 || next() ? current.bytes()[position++] & 0xFF : -1;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (available() == 0 && !next()) {
      return -1;
    }
    int n = Math.min(len, available());
    System.arraycopy(current.bytes(), position, b, off, n);
    position += n;
    return n;
  }

  @Override
  public int available() {
    return current == null ? 0 : current.length() - position;
  }

  /** Moves to the next chunk; false at the end. */
  private boolean next() throws IOException {
    if (current != null) {
      rethrowFailure();
      if (current.length() < CHUNK) {
        return false; // the last chunk was short: the stream ended there
      }
    }
    lock.lock();
    try {
      if (current != null) {
        free.add(current.bytes());
        current = null; // its bytes are the thread's again, even if the wait below is interrupted
        if (threadWaits && free.size() >= WAKE_AT) {
          freeEnough.signal();
        }
      }
      while (filled.isEmpty()) {
        readerWaits = true;
        filledEnough.awaitNanos(READER_WAIT_NANOS);
      }
      readerWaits = false;
      current = filled.poll();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      readerWaits = false;
      throw new InterruptedIOException("interrupted while reading ahead");
    } finally {
      lock.unlock();
    }
    position = 0;
    rethrowFailure();
    return current.length() > 0;
  }

  /** The read-ahead thread's failure, thrown in the reader's: at the point of the stream where it happened. */
  private void rethrowFailure() throws IOException {
    if (current.failure() instanceof IOException e) {
      throw e;
    }
    if (current.failure() instanceof RuntimeException e) {
      throw e;
    }
    if (current.failure() instanceof Error e) {
      throw e;
    }
    if (current.failure() != null) {
      throw new IOException(current.failure());
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    lock.lock();
    try {
      freeEnough.signal(); // if the thread waits for a free chunk
    } finally {
      lock.unlock();
    }
    boolean interrupted = false;
    long deadline = System.nanoTime() + CLOSE_WAIT_MILLIS * 1_000_000;
    while (thread.isAlive()) { // waited for even by a closer that was interrupted (a task cancelled)
      try {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          thread.interrupt();
          thread.join();
        } else {
          thread.join(Math.max(1, left / 1_000_000));
        }
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    in.close();
  }
}
