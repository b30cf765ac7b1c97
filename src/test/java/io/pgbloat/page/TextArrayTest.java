package io.pgbloat.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextArrayTest {

  /** The payload (after the 4-byte varlena header) of a one-dimensional text[] without nulls. */
  private static byte[] payload(String... elements) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteBuffer header = ByteBuffer.allocate(20).order(ByteOrder.LITTLE_ENDIAN);
    header.putInt(1).putInt(0).putInt(25 /* TEXTOID */).putInt(elements.length).putInt(1);
    out.writeBytes(header.array());
    // data at ARR_OVERHEAD_NONULLS(1) = MAXALIGN(16 + 8) = 24 from the varlena header: payload 20
    for (String e : elements) {
      byte[] text = e.getBytes(StandardCharsets.UTF_8);
      out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((text.length + 4) << 2).array());
      out.writeBytes(text);
      while ((out.size() + 4) % 4 != 0) {
        out.write(0);
      }
    }
    return out.toByteArray();
  }

  @Test
  void decodesReloptionsAsTransformRelOptionsWritesThem() {
    assertEquals(List.of("fillfactor=70", "autovacuum_enabled=false"),
        TextArray.decode(payload("fillfactor=70", "autovacuum_enabled=false")));
    assertEquals(List.of("a", "bc", "def", "ghij"), TextArray.decode(payload("a", "bc", "def", "ghij")));
  }

  @Test
  void emptyArrayHasNoElements() {
    assertTrue(TextArray.decode(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 25, 0, 0, 0}).isEmpty());
  }

  @Test
  void rejectsAnArrayThatRunsPastItsEnd() {
    byte[] whole = payload("fillfactor=70");
    byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 5);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TextArray.decode(cut));
    assertTrue(e.getMessage().contains("runs past its end"), e.getMessage());
  }

  @Test
  void rejectsTwoDimensions() {
    byte[] p = payload("x");
    p[0] = 2;
    assertThrows(IllegalArgumentException.class, () -> TextArray.decode(p));
  }
}
