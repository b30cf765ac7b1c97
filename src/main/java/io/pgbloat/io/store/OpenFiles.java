package io.pgbloat.io.store;

import java.io.Closeable;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What a store keeps open of each file it reads, per path, until the file is released or the
 * store closed. Safe from several threads.
 *
 * @param <T> what is kept open of a file (a stream, a channel, a decoder)
 */
public final class OpenFiles<T extends Closeable> {
  /** Opens the file at a path. */
  @FunctionalInterface
  public interface Opener<T> {
    T open(String path) throws IOException;
  }

  private final Map<String, T> open = new HashMap<>();
  private final Predicate<T> usable;
  /** Set by {@link #close}: a thread still reading (one reading ahead) must not open a file again. */
  private boolean closed;

  /** @param usable whether what was opened can still be read (an interrupt shuts a channel) */
  public OpenFiles(Predicate<T> usable) {
    this.usable = usable;
  }

  /** The file at {@code path}, opened (again) by {@code opener} if it is not open. */
  public T of(String path, Opener<T> opener) throws IOException {
    synchronized (open) {
      if (closed) {
        throw new java.nio.channels.ClosedChannelException();
      }
      T file = open.get(path);
      if (file == null || !usable.test(file)) {
        file = opener.open(path);
        open.put(path, file);
      }
      return file;
    }
  }

  /** Closes the file at {@code path} if it is open; a later {@link #of} opens it again. */
  public void release(String path) throws IOException {
    T file;
    synchronized (open) {
      file = open.remove(path);
    }
    if (file != null) {
      file.close();
    }
  }

  /** Closes every file, throwing the first failure once all were tried. */
  public void close() throws IOException {
    IOException first = null;
    synchronized (open) {
      for (T file : open.values()) {
        try {
          file.close();
        } catch (IOException e) {
          if (first == null) {
            first = e;
          }
        }
      }
      open.clear();
      closed = true;
    }
    if (first != null) {
      throw first;
    }
  }
}
