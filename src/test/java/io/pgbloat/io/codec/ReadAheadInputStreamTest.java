package io.pgbloat.io.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A stream read ahead gives its source's bytes in order, across chunks, and its source's failure
 * where it happened, an Error too: its reader never waits for a chunk that will not come. Closed,
 * it lets a read under way finish (an interrupt would shut a file's channel for every reader).
 */
class ReadAheadInputStreamTest {
  @Test
  void givesTheSourcesBytesAcrossChunks() throws IOException {
    byte[] bytes = new byte[(5 << 20) + 12345]; // five chunks and a part
    new Random(7).nextBytes(bytes);
    try (InputStream in = new ReadAheadInputStream(new ByteArrayInputStream(bytes), "test")) {
      assertArrayEquals(bytes, in.readAllBytes());
      assertEquals(-1, in.read());
    }
  }

  /**
   * A side waiting for chunks is woken only once several wait for it: a source that is slow at
   * times and a reader that is slow at others, each waiting on the other in turn, still bring
   * every byte, in order, and the end.
   */
  @Test
  void sidesSlowInTurnNeverWaitForEachOtherForever() {
    byte[] bytes = new byte[(40 << 20) + 777];
    new Random(11).nextBytes(bytes);
    // slow over the first half of every ten chunks
    InputStream source = sourceOf(bytes, pos -> pauseNow(pos / ReadAheadInputStream.CHUNK % 10 < 5));
    assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
      try (InputStream in = new ReadAheadInputStream(source, "test")) {
        byte[] read = new byte[bytes.length];
        int at = 0;
        for (int n; (n = in.read(read, at, Math.min(1 << 16, read.length - at))) > 0; at += n) {
          pauseNow(at / ReadAheadInputStream.CHUNK % 10 >= 5); // slow over the other half: the thread fills every chunk and waits
        }
        assertEquals(bytes.length, at);
        assertArrayEquals(bytes, read);
        assertEquals(-1, in.read());
      }
    });
  }

  /** What {@link #sourceOf} does before each read, given the bytes read so far. */
  @FunctionalInterface
  private interface BeforeRead {
    void at(int pos) throws IOException;
  }

  /** A source of {@code bytes} in reads of at most 64 kB, each after {@code before}. */
  private static InputStream sourceOf(byte[] bytes, BeforeRead before) {
    return new InputStream() {
      private int pos;

      @Override
      public int read() {
        throw new UnsupportedOperationException();
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (pos == bytes.length) {
          return -1;
        }
        before.at(pos);
        int n = Math.min(Math.min(len, 1 << 16), bytes.length - pos);
        System.arraycopy(bytes, pos, b, off, n);
        pos += n;
        return n;
      }
    };
  }

  /** A source of {@code bytes} that, once it has given {@code before} bytes, waits for {@code go}. */
  private static InputStream stallingAt(byte[] bytes, int before, CountDownLatch go) {
    return sourceOf(bytes, pos -> {
      if (pos == before) {
        try {
          go.await();
        } catch (InterruptedException e) {
          throw new java.io.InterruptedIOException();
        }
      }
    });
  }

  /** Chunks read before the source stalls reach the reader, though fewer than a wake-up waits for. */
  @Test
  void whatCameBeforeAStallIsReadDuringIt() {
    byte[] bytes = new byte[10 << 20];
    new Random(13).nextBytes(bytes);
    CountDownLatch go = new CountDownLatch(1);
    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
      try (InputStream in = new ReadAheadInputStream(stallingAt(bytes, 2 * ReadAheadInputStream.CHUNK, go), "test")) {
        byte[] before = in.readNBytes(2 * ReadAheadInputStream.CHUNK); // while the source waits
        go.countDown();
        assertArrayEquals(bytes, concat(before, in.readAllBytes()));
      }
    });
  }

  /** A read interrupted while it waits for a chunk may be tried again: no byte lost or doubled. */
  @Test
  void aReadInterruptedWhileWaitingCanBeTriedAgain() {
    byte[] bytes = new byte[(30 << 20) + 5];
    new Random(14).nextBytes(bytes);
    CountDownLatch go = new CountDownLatch(1);
    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
      try (InputStream in = new ReadAheadInputStream(stallingAt(bytes, ReadAheadInputStream.CHUNK, go), "test")) {
        byte[] first = in.readNBytes(ReadAheadInputStream.CHUNK);
        Thread.currentThread().interrupt();
        assertThrows(java.io.InterruptedIOException.class, in::read); // the source stalls: the reader waits
        assertTrue(Thread.interrupted(), "the interrupt is kept");
        go.countDown();
        assertArrayEquals(bytes, concat(first, in.readAllBytes()));
      }
    });
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  private static void pauseNow(boolean pause) {
    if (pause) {
      try {
        Thread.sleep(1); // a millisecond a read of 64 kB
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Test
  void aFailureComesAfterTheBytesBeforeIt() {
    InputStream failing = new SequenceInputStream(new ByteArrayInputStream(new byte[100]), new InputStream() {
      @Override
      public int read() throws IOException {
        throw new IOException("the disk failed");
      }
    });
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      try (InputStream in = new ReadAheadInputStream(failing, "test")) {
        IOException e = assertThrows(IOException.class, in::readAllBytes);
        assertEquals("the disk failed", e.getMessage());
      }
    });
  }

  @Test
  void anErrorReachesTheReader() {
    InputStream exhausted = new InputStream() {
      @Override
      public int read() {
        throw new OutOfMemoryError("simulated");
      }
    };
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      try (InputStream in = new ReadAheadInputStream(exhausted, "test")) {
        assertThrows(OutOfMemoryError.class, in::read);
      }
    });
  }

  @Test
  void closingLetsAReadUnderWayFinishUninterrupted() throws Exception {
    CountDownLatch reading = new CountDownLatch(1);
    AtomicBoolean interrupted = new AtomicBoolean();
    AtomicBoolean finished = new AtomicBoolean();
    InputStream slow = new InputStream() {
      @Override
      public int read() {
        throw new UnsupportedOperationException();
      }

      @Override
      public int read(byte[] b, int off, int len) {
        reading.countDown();
        try {
          Thread.sleep(300);
        } catch (InterruptedException e) {
          interrupted.set(true);
        }
        finished.set(true);
        return len;
      }
    };
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      InputStream in = new ReadAheadInputStream(slow, "test");
      reading.await();
      Thread.currentThread().interrupt(); // a cancelled task's thread closes it too
      in.close();
      assertTrue(Thread.interrupted(), "the closer's interrupt was lost");
      assertTrue(finished.get(), "close returned before the read under way ended");
      assertFalse(interrupted.get(), "the read under way was interrupted");
    });
  }
}
