package io.pgbloat.io.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The numbers of a tar header as src/port/tar.c writes them: octal, or base-256 when too large. */
class TarArchiveTest {
  @Test
  void octalAndBase256Numbers() {
    byte[] header = new byte[TarArchive.BLOCK_SIZE];
    byte[] octal = "00000017777 ".getBytes(StandardCharsets.US_ASCII); // print_tar_number: digits, then a space
    System.arraycopy(octal, 0, header, 124, octal.length);
    assertEquals(017777, TarArchive.number(header, 124, 12));
    header[124] = (byte) 0x80; // a size past 8 GB: 0x80, then the value big-endian
    for (int i = 125; i < 136; i++) {
      header[i] = 0;
    }
    header[131] = 0x02;
    header[135] = 0x01;
    assertEquals((2L << 32) + 1, TarArchive.number(header, 124, 12));
  }

  @Test
  void checksumTakesItsOwnFieldAsSpaces() {
    byte[] header = new byte[TarArchive.BLOCK_SIZE];
    header[0] = 'a';
    header[148] = 'x'; // inside the checksum field: not counted
    assertEquals(8 * ' ' + 'a', TarArchive.checksum(header));
    assertEquals(TarArchive.BLOCK_SIZE * 2, TarArchive.padded(TarArchive.BLOCK_SIZE + 1));
  }
}
