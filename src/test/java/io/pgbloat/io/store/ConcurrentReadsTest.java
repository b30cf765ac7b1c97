package io.pgbloat.io.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Independent reads: in flight together as the store advises, their results in order, the first failure thrown. */
class ConcurrentReadsTest {

  /** A store holding no file, advising {@code inFlight} reads at once. */
  private static FileStore advising(int inFlight) {
    return new FileStore() {
      @Override
      public String root() {
        return "advising " + inFlight;
      }

      @Override
      public long length(String path) {
        return -1;
      }

      @Override
      public boolean isDirectory(String path) {
        return false;
      }

      @Override
      public List<String> list(String path) {
        return List.of();
      }

      @Override
      public void readFully(String path, long position, byte[] buffer, int offset, int length) throws IOException {
        throw new java.io.FileNotFoundException(path);
      }

      @Override
      public int readsInFlight() {
        return inFlight;
      }

      @Override
      public void close() {}
    };
  }

  @Test
  void readsAdvisedToOverlapAreInFlightTogether() {
    CountDownLatch allStarted = new CountDownLatch(4);
    List<Integer> items = List.of(3, 1, 4, 1);
    List<Integer> doubled = assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
        ConcurrentReads.each(advising(4), items, n -> {
          allStarted.countDown();
          // each read waits for the others to have started: one after another, none would end
          try {
            if (!allStarted.await(10, TimeUnit.SECONDS)) {
              throw new IOException("the reads were not in flight together");
            }
          } catch (InterruptedException e) {
            throw new java.io.InterruptedIOException("interrupted");
          }
          return 2 * n;
        }));
    assertEquals(List.of(6, 2, 8, 2), doubled, "results in the items' order");
  }

  @Test
  void aStoreAdvisingOneReadsOnTheCallersThread() throws IOException {
    Thread caller = Thread.currentThread();
    List<Boolean> onCaller = ConcurrentReads.each(advising(1), List.of(1, 2, 3), n -> Thread.currentThread() == caller);
    assertEquals(List.of(true, true, true), onCaller);
    List<Boolean> remote = ConcurrentReads.each(advising(8), List.of(1, 2), n -> Thread.currentThread() == caller);
    assertEquals(List.of(false, false), remote);
  }

  @Test
  void theFirstFailureInTheItemsOrderIsThrown() {
    List<Integer> items = IntStream.range(0, 40).boxed().toList();
    IOException thrown = assertThrows(IOException.class, () -> ConcurrentReads.each(advising(16), items, n -> {
      if (n == 7 || n == 30) {
        throw new IOException("cannot read " + n);
      }
      return n;
    }));
    assertEquals("cannot read 7", thrown.getMessage());
    IllegalStateException runtime = assertThrows(IllegalStateException.class,
        () -> ConcurrentReads.each(advising(4), items, n -> {
          throw new IllegalStateException("damaged " + n);
        }));
    assertEquals("damaged 0", runtime.getMessage());
  }
}
