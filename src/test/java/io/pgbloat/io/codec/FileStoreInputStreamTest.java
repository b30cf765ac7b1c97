package io.pgbloat.io.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pgbloat.io.store.FileStore;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A stored file streamed to a decoder is asked of its store in whole megabytes at multiples of
 * one, from the megabyte its span starts in: O_DIRECT takes only reads so aligned, and a
 * pgBackRest bundle's file starts anywhere in its bundle.
 */
class FileStoreInputStreamTest {
  private static final int MB = 1 << 20;

  /** One file in memory, its reads recorded as (position, length). */
  private static final class RecordingStore implements FileStore {
    final byte[] file;
    final List<long[]> reads = new ArrayList<>();

    RecordingStore(byte[] file) {
      this.file = file;
    }

    @Override
    public String root() {
      return "memory";
    }

    @Override
    public long length(String path) {
      return file.length;
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
    public void readFully(String path, long position, byte[] buffer, int offset, int length) {
      reads.add(new long[] {position, length});
      System.arraycopy(file, (int) position, buffer, offset, length);
    }

    @Override
    public void close() {}
  }

  @Test
  void aStreamAtAnOddOffsetIsReadInWholeAlignedMegabytes() throws IOException {
    byte[] file = new byte[4 * MB];
    new Random(7).nextBytes(file);
    RecordingStore store = new RecordingStore(file);
    long offset = 100;
    long length = 3 * MB + 5;
    try (InputStream in = FileStoreInputStream.readAhead(store, "f", offset, length, "test")) {
      assertArrayEquals(Arrays.copyOfRange(file, (int) offset, (int) (offset + length)), in.readAllBytes());
    }
    List<String> reads = store.reads.stream().map(r -> r[0] + "+" + r[1]).toList();
    assertEquals(List.of("0+" + MB, MB + "+" + MB, 2 * MB + "+" + MB, 3 * MB + "+105"), reads);
  }
}
