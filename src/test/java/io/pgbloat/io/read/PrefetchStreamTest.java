package io.pgbloat.io.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.io.store.FileStore;
import io.pgbloat.io.store.HadoopFileStore;
import io.pgbloat.page.LittleEndian;
import io.pgbloat.page.PageHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The prefetch stream on a file whose every block carries its own number: for random block
 * sets and K, B from 1 to 64, pages come back complete, in order, each the right one; no read
 * spans more than B blocks; a failing read is retried once, then named.
 */
class PrefetchStreamTest {
  static final int BLOCKS = 3000;
  static final int SEGMENT_BLOCKS = 1000; // three segments, so reads cross segment files
  @TempDir static Path dir;

  @BeforeAll
  static void writeFile() throws IOException {
    for (int segment = 0; segment < 3; segment++) {
      ByteBuffer b = ByteBuffer.allocate(SEGMENT_BLOCKS * PageHeader.BLCKSZ).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < SEGMENT_BLOCKS; i++) {
        b.putLong(i * PageHeader.BLCKSZ, (long) segment * SEGMENT_BLOCKS + i);
        b.putLong(i * PageHeader.BLCKSZ + PageHeader.BLCKSZ - 8, ~((long) segment * SEGMENT_BLOCKS + i));
      }
      Files.write(dir.resolve(SegmentedFile.segmentPath("rel", segment)), b.array());
    }
  }

  /** A store that records every read's length and fails reads as told. */
  static final class RecordingStore implements FileStore {
    final FileStore inner;
    final List<Integer> readLengths = java.util.Collections.synchronizedList(new ArrayList<>());
    final Set<Long> failAlways = ConcurrentHashMap.newKeySet();
    final Set<Long> failOnce = ConcurrentHashMap.newKeySet();
    final AtomicInteger failures = new AtomicInteger();
    /** Each read takes at least this long (0: as fast as the disk), like a cold device. */
    volatile long delayNanos;
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger mostInFlight = new AtomicInteger();
    final Map<String, AtomicInteger> readsByThread = new ConcurrentHashMap<>();

    RecordingStore() throws IOException {
      inner = HadoopFileStore.open(dir.toString(), new Configuration());
    }

    @Override public String root() { return inner.root(); }
    @Override public long length(String path) throws IOException { return inner.length(path); }
    @Override public boolean isDirectory(String path) throws IOException { return inner.isDirectory(path); }
    @Override public List<String> list(String path) throws IOException { return inner.list(path); }
    @Override public void close() throws IOException { inner.close(); }

    @Override
    public void readFully(String path, long position, byte[] buffer, int offset, int length) throws IOException {
      int segment = path.contains(".") ? Integer.parseInt(path.substring(path.indexOf('.') + 1)) : 0;
      long first = (long) segment * SEGMENT_BLOCKS + position / PageHeader.BLCKSZ;
      for (long b = first; b < first + length / PageHeader.BLCKSZ; b++) {
        if (failAlways.contains(b) || failOnce.remove(b)) {
          failures.incrementAndGet();
          throw new IOException("injected failure at block " + b);
        }
      }
      readLengths.add(length / PageHeader.BLCKSZ);
      readsByThread.computeIfAbsent(Thread.currentThread().getName(), t -> new AtomicInteger()).incrementAndGet();
      mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      try {
        long until = System.nanoTime() + delayNanos;
        inner.readFully(path, position, buffer, offset, length);
        while (System.nanoTime() < until) {
          java.util.concurrent.locks.LockSupport.parkNanos(until - System.nanoTime());
        }
      } finally {
        inFlight.decrementAndGet();
      }
    }
  }

  private static final SegmentedFile FILE = new SegmentedFile("rel", SEGMENT_BLOCKS, BLOCKS);

  @Test
  void pagesComeBackCompleteAndInOrderForAnyConcurrencyAndCombining() throws IOException {
    Random random = new Random(11);
    int[] settings = {1, 2, 3, 7, 16, 64};
    for (int k : settings) {
      for (int b : settings) {
        int gap = random.nextInt(3) == 0 ? 0 : random.nextInt(b + 1);
        TreeSet<Long> chosen = new TreeSet<>();
        int size = 1 + random.nextInt(600);
        while (chosen.size() < size) {
          long start = random.nextInt(BLOCKS);
          int run = random.nextInt(4) == 0 ? 1 + random.nextInt(100) : 1;
          for (long x = start; x < Math.min(BLOCKS, start + run); x++) {
            chosen.add(x);
          }
        }
        BlockList.Builder list = new BlockList.Builder();
        chosen.forEach(list::add);
        try (RecordingStore store = new RecordingStore();
            BlockReader reader = new BlockReader(store, new IoSettings(k, b, false).withGapLimit(gap))) {
          PrefetchStream stream = reader.stream(FILE, list.build());
          List<Long> seen = new ArrayList<>();
          while (stream.hasNext()) {
            BlockRead read = stream.next();
            assertNull(read.failure());
            byte[] page = new byte[PageHeader.BLCKSZ];
            read.copyTo(page);
            assertEquals(read.block(), LittleEndian.int64(page, 0), "K=" + k + " B=" + b + " gap=" + gap);
            assertEquals(~read.block(), LittleEndian.int64(page, PageHeader.BLCKSZ - 8));
            seen.add(read.block());
          }
          assertEquals(new ArrayList<>(chosen), seen, "K=" + k + " B=" + b + " gap=" + gap);
          for (int length : store.readLengths) {
            assertTrue(length >= 1 && length <= b, "a read of " + length + " blocks with B=" + b);
          }
          assertEquals(chosen.size(), reader.counters().blocks());
          // read through: exactly the blocks between sampled ones that no more than gap apart
          // and within one read of B
          long readBlocks = store.readLengths.stream().mapToLong(Integer::longValue).sum();
          assertEquals(readBlocks, reader.counters().blocks() + reader.counters().gapBlocks());
          if (gap == 0) {
            assertEquals(0, reader.counters().gapBlocks());
          }
          // a read crossing into the next segment file is one request but two file reads
          assertTrue(reader.counters().reads() <= store.readLengths.size());
          assertTrue(reader.counters().reads() >= store.readLengths.size() - 2);
        }
      }
    }
  }

  /**
   * Reads that take 250 µs each, as on a cold device: with K > 1 every read is made on the I/O
   * threads (which claim the next read themselves), several at once but never more than K, and
   * the pages still come back complete and in order.
   */
  @Test
  void slowReadsRunOnTheIoThreadsAtOnceAndStillComeBackInOrder() throws IOException {
    Random random = new Random(5);
    for (int k : new int[] {2, 4, 16}) {
      for (int b : new int[] {1, 4}) {
        TreeSet<Long> chosen = new TreeSet<>();
        while (chosen.size() < 300) {
          chosen.add((long) random.nextInt(BLOCKS));
        }
        BlockList.Builder list = new BlockList.Builder();
        chosen.forEach(list::add);
        try (RecordingStore store = new RecordingStore();
            BlockReader reader = new BlockReader(store, new IoSettings(k, b, false))) {
          store.delayNanos = 250_000;
          PrefetchStream stream = reader.stream(FILE, list.build());
          List<Long> seen = new ArrayList<>();
          while (stream.hasNext()) {
            BlockRead read = stream.next();
            assertNull(read.failure());
            byte[] page = new byte[PageHeader.BLCKSZ];
            read.copyTo(page);
            assertEquals(read.block(), LittleEndian.int64(page, 0), "K=" + k + " B=" + b);
            seen.add(read.block());
          }
          String caller = Thread.currentThread().getName();
          String where = "K=" + k + " B=" + b + ": at most " + store.mostInFlight.get() + " in flight, reads by thread "
              + store.readsByThread;
          assertEquals(new ArrayList<>(chosen), seen, where);
          assertEquals(0, store.readsByThread.getOrDefault(caller, new AtomicInteger()).get(), where);
          assertTrue(store.readsByThread.keySet().stream().allMatch(t -> t.equals(caller) || t.startsWith("pgbloat-io")),
              where);
          assertTrue(store.mostInFlight.get() >= Math.min(k, 2) && store.mostInFlight.get() <= k, where);
        }
      }
    }
  }

  @Test
  void readFailingOnceIsRetriedAndOneFailingAlwaysIsNamedAlone() throws IOException {
    try (RecordingStore store = new RecordingStore();
        BlockReader reader = new BlockReader(store, new IoSettings(4, 8, false))) {
      store.failOnce.add(100L);
      store.failAlways.add(205L);
      PrefetchStream stream = reader.stream(FILE, BlockList.range(96, 120)); // reads 96-103, ..., 200-207, ...
      List<Long> failed = new ArrayList<>();
      String reason = null;
      int count = 0;
      while (stream.hasNext()) {
        BlockRead read = stream.next();
        count++;
        if (read.failure() != null) {
          failed.add(read.block());
          reason = read.failure();
        }
      }
      assertEquals(120, count);
      // the combined read 200..207 failed, so each of its blocks was read alone: only 205 is bad
      assertEquals(List.of(205L), failed);
      assertTrue(reason.startsWith("read of block 205 of rel failed twice (IOException: injected failure at block 205)"),
          reason);
      assertEquals(5, store.failures.get()); // block 100 once; 205 twice combined, twice alone
      assertEquals(119, reader.counters().blocks());
    }
  }

  /**
   * A stream left half read stops reading ahead when the task makes its next one, which gets
   * the I/O threads and reads to the end (a stream holding them would hang the task).
   */
  @Test
  void aStreamLeftUnfinishedFreesTheIoThreadsForTheNext() throws Exception {
    try (RecordingStore store = new RecordingStore();
        BlockReader reader = new BlockReader(store, new IoSettings(4, 2, false))) {
      store.delayNanos = 100_000;
      PrefetchStream left = reader.stream(FILE, BlockList.range(0, 200));
      for (int i = 0; i < 10; i++) {
        left.next();
      }
      CompletableFuture<Integer> next = CompletableFuture.supplyAsync(() -> {
        PrefetchStream stream = reader.stream(FILE, BlockList.range(300, 50));
        int count = 0;
        while (stream.hasNext()) {
          assertNull(stream.next().failure());
          count++;
        }
        return count;
      });
      assertEquals(50, next.get(30, java.util.concurrent.TimeUnit.SECONDS));
    }
  }
}
