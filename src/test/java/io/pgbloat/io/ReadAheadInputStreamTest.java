package io.pgbloat.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A stream read ahead gives its source's bytes in order, across chunks, and its source's failure
 * where it happened, an Error too: its reader never waits for a chunk that will not come.
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
}
