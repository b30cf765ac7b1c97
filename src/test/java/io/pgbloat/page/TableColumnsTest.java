package io.pgbloat.page;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The length a tuple takes once a rewrite forms it again, on tuples laid out as heap_fill_tuple
 * writes them: a 24-byte header (no null bitmap), an int4, then a varlena. End to end, against
 * real VACUUM FULL sizes, in {@code it/ReclaimableMatchesVacuumFullTest}.
 */
class TableColumnsTest {
  private static final TableColumns.Column INT4 = new TableColumns.Column(4, 'i', false, false, false);
  private static final TableColumns.Column TEXT = new TableColumns.Column(-1, 'i', true, false, false);
  private static final TableColumns.Column PLAIN_TEXT = new TableColumns.Column(-1, 'i', false, false, false);
  private static final TableColumns.Column DROPPED_INT4 = new TableColumns.Column(4, 'i', false, true, false);
  private static final int HEADER = 24;

  /** A tuple of {@code natts} attributes: an int4, then {@code varlena} unless null. */
  private static byte[] tuple(int natts, byte[] varlena) {
    ByteBuffer b = ByteBuffer.allocate(HEADER + 4 + (varlena == null ? 0 : varlena.length)).order(ByteOrder.LITTLE_ENDIAN);
    b.putShort(HeapTupleHeader.T_INFOMASK2_OFFSET, (short) natts);
    b.putShort(HeapTupleHeader.T_INFOMASK_OFFSET, (short) HeapTupleHeader.HEAP_HASVARWIDTH);
    b.put(HeapTupleHeader.T_HOFF_OFFSET, (byte) HEADER);
    b.putInt(HEADER, 42);
    if (varlena != null) {
      b.put(HEADER + 4, varlena);
    }
    return b.array();
  }

  /** An uncompressed varlena of {@code size} bytes with a 4-byte header (VARSIZE_4B in its upper 30 bits). */
  private static byte[] fourByte(int size, int flags) {
    byte[] v = new byte[size];
    ByteBuffer.wrap(v).order(ByteOrder.LITTLE_ENDIAN).putInt(0, (size << 2) | flags);
    return v;
  }

  private static int rewritten(List<TableColumns.Column> columns, byte[] tuple) {
    return new TableColumns(columns).rewrittenLength(tuple, 0, tuple.length);
  }

  @Test
  void aShortValueWithAFourByteHeaderIsStoredShort() {
    byte[] t = tuple(2, fourByte(40, 0));
    assertEquals(HEADER + 4 + 37, rewritten(List.of(INT4, TEXT), t));
  }

  @Test
  void aPlainColumnACompressedValueAndALongOneKeepTheirHeader() {
    assertEquals(HEADER + 4 + 40, rewritten(List.of(INT4, PLAIN_TEXT), tuple(2, fourByte(40, 0))));
    assertEquals(HEADER + 4 + 40, rewritten(List.of(INT4, TEXT), tuple(2, fourByte(40, 2)))); // VARATT_IS_4B_C
    // VARATT_SHORT_MAX with the 1-byte header: 130 bytes with the 4-byte one go short, 131 do not
    assertEquals(HEADER + 4 + 127, rewritten(List.of(INT4, TEXT), tuple(2, fourByte(130, 0))));
    assertEquals(HEADER + 4 + 131, rewritten(List.of(INT4, TEXT), tuple(2, fourByte(131, 0))));
  }

  @Test
  void aShortValueStaysAsItIs() {
    byte[] v = new byte[20];
    v[0] = (byte) ((20 << 1) | 1); // VARSIZE_1B
    assertEquals(HEADER + 4 + 20, rewritten(List.of(INT4, TEXT), tuple(2, v)));
  }

  @Test
  void aDroppedColumnIsStoredAsANull() {
    byte[] t = tuple(2, fourByte(40, 0));
    // the int4 goes; a null bitmap of one byte fits the header's 24 bytes; the text is stored short
    assertEquals(HEADER + 37, rewritten(List.of(DROPPED_INT4, TEXT), t));
  }

  @Test
  void aColumnAddedSinceIsANullUnlessItHasAMissingValue() {
    byte[] t = tuple(1, null);
    assertEquals(HEADER + 4, rewritten(List.of(INT4, TEXT), t));
    assertEquals(t.length, rewritten(List.of(INT4, new TableColumns.Column(-1, 'i', true, false, true)), t));
  }

  @Test
  void aTupleTheColumnsDoNotDescribeIsTakenAsItIs() {
    byte[] t = tuple(2, fourByte(40, 0));
    assertEquals(t.length, TableColumns.AS_STORED.rewrittenLength(t, 0, t.length));
    byte[] cut = tuple(2, fourByte(40, 0));
    assertEquals(30, new TableColumns(List.of(INT4, TEXT)).rewrittenLength(cut, 0, 30)); // the value runs past lp_len
  }
}
