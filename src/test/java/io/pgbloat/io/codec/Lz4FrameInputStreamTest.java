package io.pgbloat.io.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.SplittableRandom;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorOutputStream.BlockSize;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorOutputStream.Parameters;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Our LZ4 frame reader against another writer (commons-compress's), with linked and independent
 * blocks, block and content checksums, two frames in a row; a damaged stream is an IOException.
 * (The real PostgreSQL --compress=server-lz4 archives are read in BaseBackupArchivesTest.)
 */
class Lz4FrameInputStreamTest {
  /** Words, with runs copied from about 60 kB back, so matches reach into earlier blocks. */
  private static byte[] data(int size) {
    String[] words = {"tuple ", "page ", "dead ", "free ", "vacuum ", "bloat ", "index ", "heap "};
    byte[] b = new byte[size];
    SplittableRandom random = new SplittableRandom(11);
    int i = 0;
    while (i < size) {
      if (i > 70000 && random.nextInt(8) == 0) {
        int from = i - 60000 - random.nextInt(4000);
        for (int n = 0; n < 40 && i < size; n++) {
          b[i++] = b[from + n];
        }
      } else {
        for (byte c : words[random.nextInt(words.length)].getBytes(java.nio.charset.StandardCharsets.US_ASCII)) {
          if (i < size) {
            b[i++] = c;
          }
        }
        if (i < size && random.nextInt(5) == 0) {
          b[i++] = (byte) ('0' + random.nextInt(10));
        }
      }
    }
    return b;
  }

  /**
   * {@link #data} with long runs of one byte and of a short pattern between, as a page's blank
   * padding gives: matches that overlap their own output, over many blocks.
   */
  private static byte[] dataWithRuns(int size) {
    byte[] b = data(size);
    SplittableRandom random = new SplittableRandom(12);
    for (int at = 1000; at < size - 5000; at += 3000 + random.nextInt(20000)) {
      int period = 1 + random.nextInt(3);
      int run = 33 + random.nextInt(4000);
      for (int i = period; i < run; i++) {
        b[at + i] = b[at + i - period];
      }
    }
    return b;
  }

  private static byte[] compress(byte[] data, Parameters parameters) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (FramedLZ4CompressorOutputStream lz4 = new FramedLZ4CompressorOutputStream(out, parameters)) {
      lz4.write(data);
    }
    return out.toByteArray();
  }

  private static byte[] decode(byte[] compressed) throws IOException {
    try (InputStream in = new Lz4FrameInputStream(new ByteArrayInputStream(compressed))) {
      return in.readAllBytes();
    }
  }

  @Test
  void linkedAndIndependentBlocksWithAndWithoutChecksums() throws IOException {
    byte[] data = data(140_000);
    for (boolean linked : new boolean[] {true, false}) {
      for (boolean checksums : new boolean[] {true, false}) {
        Parameters p = new Parameters(BlockSize.K64, checksums, checksums, linked);
        assertArrayEquals(data, decode(compress(data, p)), "linked " + linked + ", checksums " + checksums);
      }
    }
  }

  @Test
  void longRunsOverManyLinkedBlocks() throws IOException {
    byte[] data = dataWithRuns(1_300_000); // long enough that the reader moves its history
    assertArrayEquals(data, decode(compress(data, new Parameters(BlockSize.K64, false, false, true))));
    // the content and block checksums cover what the moves keep
    assertArrayEquals(data, decode(compress(data, new Parameters(BlockSize.K64, true, true, true))));
    // commons-compress links only 64 kB blocks right (neither its reader nor lz4 -d reads its
    // linked 256 kB blocks back): larger blocks are tested independent
    assertArrayEquals(data, decode(compress(data, new Parameters(BlockSize.K256, false, false, false))));
  }

  @Test
  void storedBlocksAndALaterFrameOfLargerBlocks() throws IOException {
    byte[] noise = new byte[300_000]; // does not compress: the writer stores its blocks as they are
    new SplittableRandom(13).nextBytes(noise);
    byte[] text = dataWithRuns(1_200_000);
    ByteArrayOutputStream both = new ByteArrayOutputStream();
    both.write(compress(noise, new Parameters(BlockSize.K64, true, true, true)));
    both.write(compress(text, new Parameters(BlockSize.M4, false, false, false)));
    both.write(compress(text, new Parameters(BlockSize.K64, false, false, true)));
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    expected.write(noise);
    expected.write(text);
    expected.write(text);
    assertArrayEquals(expected.toByteArray(), decode(both.toByteArray()));
  }

  @Test
  void aBlockLargerThanItsFrameAllowsIsRefused() throws IOException {
    byte[] compressed = compress(data(90_000), new Parameters(BlockSize.K64, false, false, false));
    int firstBlock = (compressed[4] & 0x08) == 0 ? 7 : 15; // magic, FLG, BD, [content size,] HC
    int stored = 0x80000000 | 70_000; // a stored block of 70 000 bytes, past 64 kB
    for (int i = 0; i < 4; i++) {
      compressed[firstBlock + i] = (byte) (stored >>> (8 * i));
    }
    IOException e = assertThrows(IOException.class, () -> decode(compressed));
    assertTrue(e.getMessage().contains("more than the frame's maximum"), e.getMessage());
  }

  @Test
  void framesInARow() throws IOException {
    byte[] a = data(90_000);
    byte[] b = data(20_000);
    ByteArrayOutputStream both = new ByteArrayOutputStream();
    both.write(compress(a, new Parameters(BlockSize.K256, true, false, true)));
    both.write(compress(b, new Parameters(BlockSize.K64, false, false, false)));
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    expected.write(a);
    expected.write(b);
    assertArrayEquals(expected.toByteArray(), decode(both.toByteArray()));
  }

  @Test
  void aDamagedStreamIsAnIoException() throws IOException {
    byte[] compressed = compress(data(90_000), new Parameters(BlockSize.K64, true, false, true));
    byte[] damaged = compressed.clone();
    for (int i = 200; i < 400; i++) {
      damaged[i] ^= 0x5A;
    }
    IOException e = assertThrows(IOException.class, () -> decode(damaged));
    assertTrue(e.getMessage().contains("LZ4"), e.getMessage());
    byte[] cut = java.util.Arrays.copyOf(compressed, compressed.length / 2);
    assertThrows(IOException.class, () -> decode(cut));
  }
}
