package io.pgbloat.io;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The decoders a store keeps open, one per compressed file (an archive, a repository's file),
 * made at the file's first read and closed with the store, or when a scan moves past the file.
 */
final class DecodedFiles implements AutoCloseable {
  private final Map<String, DecodedFile> open = new HashMap<>();

  /** The decoder of {@code name}, made by {@code make} at its first read. */
  synchronized DecodedFile of(String name, Supplier<DecodedFile> make) {
    return open.computeIfAbsent(name, n -> make.get());
  }

  /** Closes the decoder of {@code name}, if there is one: the next read makes a new one. */
  void release(String name) throws IOException {
    DecodedFile d;
    synchronized (this) {
      d = open.remove(name);
    }
    if (d != null) {
      d.close();
    }
  }

  /** Closes every decoder, throwing the first failure once all were tried. */
  @Override
  public synchronized void close() throws IOException {
    IOException first = null;
    for (DecodedFile d : open.values()) {
      try {
        d.close();
      } catch (IOException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    open.clear();
    if (first != null) {
      throw first;
    }
  }
}
