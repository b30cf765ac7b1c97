package io.pgbloat.io.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.SnappyFramedOutputStream;

/**
 * Snappy's framing format, as barman-cloud-backup --snappy writes it, written here by another
 * implementation than the one that reads it (snappy-java's, on Spark's class path): decoded
 * whole; a changed byte fails its chunk's CRC-32C; a stream with no stream identifier is no decoder.
 */
class SnappyFramesTest {
  private static byte[] framed(byte[] data) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (SnappyFramedOutputStream snappy = new SnappyFramedOutputStream(out)) {
      snappy.write(data);
    }
    return out.toByteArray();
  }

  /** Pages of a table: compressible runs and random bytes, over several 64 kB chunks. */
  private static byte[] pages() {
    byte[] data = new byte[300_000];
    Random random = new Random(7);
    for (int i = 0; i < data.length; i += 8192) {
      for (int j = i; j < Math.min(i + 4096, data.length); j++) {
        data[j] = (byte) random.nextInt(256);
      }
    }
    return data;
  }

  @Test
  void framesDecodeToWhatWasWritten() throws IOException {
    byte[] data = pages();
    try (InputStream in = Compression.SNAPPY.decoder(new ByteArrayInputStream(framed(data)))) {
      assertArrayEquals(data, in.readAllBytes());
    }
  }

  @Test
  void aChangedByteFailsItsChunksChecksum() throws IOException {
    byte[] frames = framed(pages());
    frames[frames.length / 2] ^= 0x10;
    assertThrows(IOException.class, () -> {
      try (InputStream in = Compression.SNAPPY.decoder(new ByteArrayInputStream(frames))) {
        in.readAllBytes();
      }
    });
  }

  @Test
  void aStreamWithoutItsIdentifierIsNoDecoderAndIsClosed() {
    AtomicBoolean closed = new AtomicBoolean();
    InputStream garbage = new ByteArrayInputStream("not a snappy stream at all".getBytes()) {
      @Override
      public void close() {
        closed.set(true);
      }
    };
    assertThrows(IOException.class, () -> Compression.SNAPPY.decoder(garbage));
    assertTrue(closed.get(), "its input was left open");
  }
}
