package io.pgbloat.xact;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Records laid out as XLogRecordAssemble lays them out, split back into blocks and main data. */
class RecordContentsTest {
  @Test
  void blocksOfOneRelationAnImageWithAHoleAnOriginAndLongMainData() {
    Bytes r = new Bytes();
    r.u8(0).u8(0x10 | 0x20).u16(6); // block 0 of fork 0: an image and 6 bytes of data
    r.u16(100).u16(40).u8(0x01 | 0x04).u16(8000); // its image: 100 bytes, a hole, compressed: hole_length
    r.u32(1663).u32(5).u32(16384).u32(7);
    r.u8(1).u8(0x80 | 2).u16(3).u32(9); // block 1, same relation, visibility map fork, 3 bytes of data
    r.u8(RecordContents.XLR_BLOCK_ID_ORIGIN).u16(1);
    r.u8(RecordContents.XLR_BLOCK_ID_DATA_LONG).u32(300);
    r.fill(100 + 6 + 3);
    byte[] main = new byte[300];
    main[0] = 42;
    main[299] = 43;
    r.raw(main);
    RecordContents c = RecordContents.of(r.bytes());
    assertEquals(List.of(new RecordContents.BlockReference(1663, 5, 16384, 0, 7),
        new RecordContents.BlockReference(1663, 5, 16384, 2, 9)), c.blocks());
    assertArrayEquals(main, c.mainData());
  }

  @Test
  void aRecordWithoutMainDataEndsItsHeadersWhereItsBlockDataBegins() {
    Bytes r = new Bytes();
    r.u8(0).u8(0x10).u16(0);
    r.u16(8192).u16(0).u8(0); // a whole page, no hole
    r.u32(1663).u32(5).u32(16385).u32(0);
    byte[] page = new byte[8192];
    page[0] = (byte) 0xFF; // an image byte that would read as a main data header
    r.raw(page);
    RecordContents c = RecordContents.of(r.bytes());
    assertEquals(List.of(new RecordContents.BlockReference(1663, 5, 16385, 0, 0)), c.blocks());
    assertEquals(0, c.mainData().length);
  }

  @Test
  void headersThatDoNotFitTheRecordAreRefused() {
    Bytes sameRelFirst = new Bytes().u8(0).u8(0x80).u16(0).u32(3);
    assertThrows(IllegalArgumentException.class, () -> RecordContents.of(sameRelFirst.bytes()));
    Bytes short1 = new Bytes().u8(RecordContents.XLR_BLOCK_ID_DATA_SHORT).u8(10).fill(4);
    assertThrows(IllegalArgumentException.class, () -> RecordContents.of(short1.bytes()));
    Bytes cut = new Bytes().u8(0).u8(0).u16(0).u32(1663);
    assertThrows(IllegalArgumentException.class, () -> RecordContents.of(cut.bytes()));
  }

  /** Little-endian bytes, written in order. */
  private static final class Bytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Bytes u8(int v) {
      out.write(v);
      return this;
    }

    Bytes u16(int v) {
      return u8(v & 0xFF).u8(v >>> 8 & 0xFF);
    }

    Bytes u32(long v) {
      return u16((int) (v & 0xFFFF)).u16((int) (v >>> 16 & 0xFFFF));
    }

    Bytes fill(int n) {
      for (int i = 0; i < n; i++) {
        out.write(0);
      }
      return this;
    }

    Bytes raw(byte[] bytes) {
      out.writeBytes(bytes);
      return this;
    }

    byte[] bytes() {
      return out.toByteArray();
    }
  }
}
