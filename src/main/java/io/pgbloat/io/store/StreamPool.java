package io.pgbloat.io.store;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Streams of each file, each lent to one read at a time: for a store whose positional reads on
 * one stream wait for each other (an object store's stream seeks and reads under its lock), so
 * that K reads of a file in flight hold K streams, and a stream done with is lent again rather
 * than opened anew. Safe from several threads.
 *
 * @param <T> a stream
 */
final class StreamPool<T extends Closeable> {
  private final Map<String, ArrayDeque<T>> idle = new HashMap<>();
  private boolean closed;

  /** An idle stream of {@code path}, or one {@code opener} opens: the caller's until {@link #giveBack}. */
  T borrow(String path, OpenFiles.Opener<T> opener) throws IOException {
    synchronized (idle) {
      if (closed) {
        throw new java.nio.channels.ClosedChannelException();
      }
      ArrayDeque<T> streams = idle.get(path);
      if (streams != null && !streams.isEmpty()) {
        return streams.pop();
      }
    }
    return opener.open(path);
  }

  /** Takes back a stream {@link #borrow} lent, for the next read of {@code path}. */
  void giveBack(String path, T stream) throws IOException {
    synchronized (idle) {
      if (!closed) {
        idle.computeIfAbsent(path, p -> new ArrayDeque<>()).push(stream);
        return;
      }
    }
    stream.close();
  }

  /** Closes the idle streams of {@code path}. */
  void release(String path) throws IOException {
    ArrayDeque<T> streams;
    synchronized (idle) {
      streams = idle.remove(path);
    }
    closeAll(streams == null ? List.of() : new ArrayList<>(streams));
  }

  /** Closes every idle stream; one given back later is closed then. */
  void close() throws IOException {
    List<T> all = new ArrayList<>();
    synchronized (idle) {
      idle.values().forEach(all::addAll);
      idle.clear();
      closed = true;
    }
    closeAll(all);
  }

  /** Closes each of {@code streams}, throwing the first failure once all were tried. */
  private static <T extends Closeable> void closeAll(List<T> streams) throws IOException {
    IOException first = null;
    for (T stream : streams) {
      try {
        stream.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
