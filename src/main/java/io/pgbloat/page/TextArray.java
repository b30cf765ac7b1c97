package io.pgbloat.page;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A one-dimensional {@code text[]} value as PostgreSQL stores it ({@code src/include/utils/array.h}),
 * decoded from the payload {@link Tuple#varlenaPayload} gives (the bytes after the varlena
 * header). Offsets in the array header count from the 4-byte varlena header, which the payload
 * no longer has, hence the {@link #VARHDRSZ} taken off them.
 *
 * <pre>
 * | vl_len_ (4) | ndim (4) | dataoffset (4) | elemtype (4) | dims[ndim] | lbound[ndim] | nullbitmap? | pad | elements
 *               ^ payload starts here                                                                 ^ ARR_DATA_OFFSET
 * </pre>
 *
 * Each element is a text varlena, int-aligned (typalign 'i') from the array's start; a null
 * element (bit clear in the bitmap) takes no space.
 */
public final class TextArray {
  /** VARHDRSZ: the 4-byte varlena header the array's own offsets count. */
  private static final int VARHDRSZ = 4;
  /** sizeof(ArrayType): vl_len_, ndim, dataoffset, elemtype. */
  private static final int SIZEOF_ARRAY_TYPE = 16;
  /** Offsets in the payload (ArrayType's fields less vl_len_). */
  private static final int NDIM_OFFSET = 0;
  private static final int DATAOFFSET_OFFSET = 4;
  private static final int DIMS_OFFSET = 12;
  /** typalign 'i' of text. */
  private static final int TEXT_ALIGNMENT = 4;
  /** VARHDRSZ_SHORT: a 1-byte varlena header (an odd first byte on little-endian machines). */
  private static final int VARHDRSZ_SHORT = 1;

  private TextArray() {}

  /**
   * The non-null elements, in order; empty for an empty array (ndim 0).
   *
   * @throws IllegalArgumentException when the array is not one-dimensional or runs past its end
   */
  public static List<String> decode(byte[] payload) {
    int ndim = LittleEndian.int32(check(payload, NDIM_OFFSET, 4), NDIM_OFFSET);
    List<String> elements = new ArrayList<>();
    if (ndim == 0) {
      return elements;
    }
    if (ndim != 1) {
      throw new IllegalArgumentException("text[] of " + ndim + " dimensions, expected 1");
    }
    int dataOffset = LittleEndian.int32(check(payload, DATAOFFSET_OFFSET, 4), DATAOFFSET_OFFSET);
    int items = LittleEndian.int32(check(payload, DIMS_OFFSET, 4), DIMS_OFFSET);
    int bitmap = DIMS_OFFSET + 2 * 4 * ndim;
    // ARR_DATA_OFFSET: dataoffset when there is a null bitmap, else ARR_OVERHEAD_NONULLS(ndim)
    int at = (dataOffset != 0 ? dataOffset : PageHeader.maxAlign(SIZEOF_ARRAY_TYPE + 2 * 4 * ndim)) - VARHDRSZ;
    for (int i = 0; i < items; i++) {
      if (dataOffset != 0 && (check(payload, bitmap + i / 8, 1)[bitmap + i / 8] & (1 << (i % 8))) == 0) {
        continue; // null element
      }
      int first = check(payload, at, 1)[at] & 0xFF;
      int header;
      int size;
      if ((first & 0x01) == 0x01) {
        header = VARHDRSZ_SHORT;
        size = first >>> 1; // VARSIZE_1B
      } else {
        header = VARHDRSZ;
        size = (LittleEndian.int32(check(payload, at, VARHDRSZ), at) >>> 2) & 0x3FFF_FFFF; // VARSIZE_4B
      }
      if (size < header) {
        throw new IllegalArgumentException("text[] element " + i + " at " + at + " has size " + size);
      }
      elements.add(new String(check(payload, at, size), at + header, size - header, StandardCharsets.UTF_8));
      at += size;
      at = (at + VARHDRSZ + TEXT_ALIGNMENT - 1) / TEXT_ALIGNMENT * TEXT_ALIGNMENT - VARHDRSZ; // att_align_nominal
    }
    return elements;
  }

  private static byte[] check(byte[] payload, int at, int length) {
    if (at < 0 || at + length > payload.length) {
      throw new IllegalArgumentException("text[] read of " + length + " bytes at " + at
          + " runs past its end (" + payload.length + " bytes)");
    }
    return payload;
  }
}
