package io.pgbloat.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * The most bytes some directories' files held at once while something ran: a thread sums their
 * sizes every millisecond until {@link #close}. A poll can miss a peak shorter than one
 * interval, so the figure is a lower bound of the true peak.
 */
public final class DirectoryPeak implements AutoCloseable {
  private final List<Path> directories;
  private final long before;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final Thread poller;
  private volatile long peak;
  private volatile RuntimeException failure;

  private DirectoryPeak(List<Path> directories) {
    this.directories = List.copyOf(directories);
    this.before = bytes();
    this.peak = before;
    this.poller = new Thread(this::poll, "directory-peak");
    poller.setDaemon(true);
    poller.start();
  }

  /** Starts watching {@code directories} (those absent count 0). */
  public static DirectoryPeak watch(Path... directories) {
    return new DirectoryPeak(List.of(directories));
  }

  /** The most bytes they held above {@link #before} at any poll, after {@link #close}. */
  public long extraBytes() {
    if (failure != null) {
      throw failure;
    }
    return peak - before;
  }

  /** Stops the watch, after one last poll; a second call does nothing. */
  @Override
  public void close() {
    if (!running.getAndSet(false)) {
      return;
    }
    try {
      poller.join();
      peak = Math.max(peak, bytes());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      failure = e;
    }
  }

  private void poll() {
    try {
      while (running.get()) {
        peak = Math.max(peak, bytes());
        Thread.sleep(1);
      }
    } catch (RuntimeException e) {
      failure = e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private long bytes() {
    long sum = 0;
    for (Path dir : directories) {
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (Stream<Path> files = Files.list(dir)) {
        sum += files.mapToLong(DirectoryPeak::size).sum();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return sum;
  }

  /** A file's size, 0 when it went between the listing and the look (the server unlinks as we poll). */
  private static long size(Path file) {
    try {
      return Files.isRegularFile(file) ? Files.size(file) : 0;
    } catch (NoSuchFileException e) {
      return 0;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
