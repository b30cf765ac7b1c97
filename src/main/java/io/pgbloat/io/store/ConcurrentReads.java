package io.pgbloat.io.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads that do not depend on one another (each sampled table's visibility map), kept in flight
 * together as the store advises ({@link FileStore#readsInFlight}). On a remote store each one is
 * a round trip, and one after another they cost their number times the store's latency; on a
 * local disk they stay on the caller's thread, one after another, as before.
 */
public final class ConcurrentReads {
  private ConcurrentReads() {}

  /** One read of {@code item}'s files. */
  @FunctionalInterface
  public interface Read<T, R> {
    R of(T item) throws IOException;
  }

  /**
   * {@code read} of each of {@code items}, in their order. The first failure in that order is
   * thrown, and the reads still running are then cancelled.
   */
  public static <T, R> List<R> each(FileStore store, List<T> items, Read<T, R> read) throws IOException {
    int threads = Math.min(store.readsInFlight(), items.size());
    List<R> results = new ArrayList<>(items.size());
    if (threads <= 1) {
      for (T item : items) {
        results.add(read.of(item));
      }
      return results;
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "pgbloat-planning-read");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<R>> pending = new ArrayList<>(items.size());
      for (T item : items) {
        pending.add(pool.submit(() -> {
          try {
            return read.of(item);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }));
      }
      for (Future<R> f : pending) {
        results.add(outcome(f));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  private static <R> R outcome(Future<R> read) throws IOException {
    try {
      return read.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof UncheckedIOException u) {
        throw u.getCause();
      }
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IOException(cause);
    }
  }
}
