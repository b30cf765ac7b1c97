package io.pgbloat.io.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** A compressed file read as a prefetch stream reads it: rising, a little out of order, and back. */
class DecodedFileTest {
  private static final int SIZE = DecodedFile.WINDOW * 3 + 12345;

  private final byte[] plain = plain();
  private final byte[] gzipped = gzip(plain);

  private static byte[] plain() {
    byte[] b = new byte[SIZE];
    new SplittableRandom(7).nextBytes(b);
    for (int i = 0; i < b.length; i += 3) {
      b[i] = 0; // compressible, not all noise
    }
    return b;
  }

  private static byte[] gzip(byte[] data) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(data);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return out.toByteArray();
  }

  private DecodedFile file(int[] opens, long size) {
    return new DecodedFile("test.gz", () -> {
      opens[0]++;
      return Compression.GZIP.decoder(new ByteArrayInputStream(gzipped));
    }, size, true);
  }

  private void expectRead(DecodedFile f, long position, int length) throws IOException {
    byte[] got = new byte[length];
    f.read(position, got, 0, length);
    assertArrayEquals(Arrays.copyOfRange(plain, (int) position, (int) position + length), got, "at " + position);
  }

  @Test
  void readsOutOfOrderWithinTheWindowDecodeOnce() throws IOException {
    int[] opens = {0};
    try (DecodedFile f = file(opens, SIZE)) {
      long[] positions = {8192, 0, 65536, 40960, DecodedFile.WINDOW, DecodedFile.WINDOW - 8192,
          2L * DecodedFile.WINDOW + 524288, 2L * DecodedFile.WINDOW + 8192, SIZE - 8192};
      for (long p : positions) {
        expectRead(f, p, 8192);
      }
      expectRead(f, SIZE - 524288, 524288);
      assertEquals(1, opens[0], "one pass over the file");
      expectRead(f, 0, 8192); // behind the window: decoded again from the start
      assertEquals(2, opens[0]);
    }
  }

  @Test
  void aFileLongerThanItsSizeOrWithABadChecksumSaysSoAtItsEnd() throws IOException {
    int[] opens = {0};
    DecodedFile longer = file(opens, SIZE - 8192L);
    expectRead(longer, 0, 8192); // reads short of the end need not look past it
    IOException e = assertThrows(IOException.class, () -> longer.read(SIZE - 16384L, new byte[8192], 0, 8192));
    assertTrue(e.getMessage().contains("decodes to more than"), e.getMessage());
    byte[] badCrc = gzipped.clone();
    badCrc[badCrc.length - 8] ^= 0x01; // the gzip trailer's CRC-32
    DecodedFile damaged = new DecodedFile("test.gz", () -> Compression.GZIP.decoder(new ByteArrayInputStream(badCrc)),
        SIZE, true);
    expectRead(damaged, SIZE - 8192L - 1000, 8192);
    assertThrows(IOException.class, () -> damaged.read(SIZE - 8192L, new byte[8192], 0, 8192));
  }

  @Test
  void aFileShorterThanItsSizeSaysSo() {
    int[] opens = {0};
    DecodedFile f = file(opens, SIZE + 8192L);
    EOFException e = assertThrows(EOFException.class, () -> f.read(SIZE, new byte[8192], 0, 8192));
    assertTrue(e.getMessage().contains("truncated or damaged"), e.getMessage());
  }
}
