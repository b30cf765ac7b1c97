package io.pgbloat.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
