package io.pgbloat.page;

import java.util.List;

/**
 * A heap tuple split into its attributes, as {@code heap_deform_tuple}
 * ({@code src/backend/access/common/heaptuple.c}) does: attributes follow the header at
 * t_hoff, each aligned per {@code att_align_nominal}, except that a varlena whose first byte
 * is not zero is a short (1-byte header) varlena stored unaligned ({@code att_align_pointer},
 * {@code tupmacs.h}); a null (bit clear in t_bits) takes no space. Used for catalog rows,
 * whose layout is known; values are read by attribute number.
 */
public final class Tuple {
  /** NAMEDATALEN ({@code pg_config_manual.h}). */
  public static final int NAMEDATALEN = 64;

  // varlena headers, little-endian (src/include/varatt.h, postgres.h in 15)
  /** VARATT_IS_1B_E: first byte 0x01 marks an external (TOAST pointer) datum. */
  private static final int VARATT_1B_E_HEADER = 0x01;
  /** VARHDRSZ_EXTERNAL: header + tag byte of an external datum. */
  private static final int VARHDRSZ_EXTERNAL = 2;
  /** VARHDRSZ: the 4-byte header. */
  static final int VARHDRSZ = 4;
  /** VARHDRSZ_SHORT: the 1-byte header. */
  static final int VARHDRSZ_SHORT = 1;
  /** VARATT_IS_4B_U: a 4-byte header whose two low bits are clear (uncompressed; 0x02 marks compressed). */
  private static final int VARATT_4B_MASK = 0x03;
  /** vartag_external values and their payload sizes (VARTAG_SIZE). */
  private static final int VARTAG_INDIRECT = 1;
  private static final int VARTAG_EXPANDED_RO = 2;
  private static final int VARTAG_EXPANDED_RW = 3;
  private static final int VARTAG_ONDISK = 18;
  private static final int SIZEOF_VARATT_EXTERNAL = 16;
  private static final int SIZEOF_POINTER = 8;

  private final byte[] page;
  private final int[] offsets; // -1: null or missing
  private final int[] lengths;

  private Tuple(byte[] page, int[] offsets, int[] lengths) {
    this.page = page;
    this.offsets = offsets;
    this.lengths = lengths;
  }

  /**
   * Splits the tuple at {@code tuple} (lp_off) of length {@code tupleLength} (lp_len).
   *
   * @throws IllegalArgumentException when an attribute would extend beyond the tuple
   */
  public static Tuple deform(byte[] page, int tuple, int tupleLength, List<Attribute> attributes) {
    int infomask = HeapTupleHeader.infomask(page, tuple);
    boolean hasNulls = (infomask & HeapTupleHeader.HEAP_HASNULL) != 0;
    int natts = Math.min(HeapTupleHeader.natts(page, tuple), attributes.size());
    int end = tuple + tupleLength;
    int data = tuple + HeapTupleHeader.hoff(page, tuple);
    int[] offsets = new int[attributes.size()];
    int[] lengths = new int[attributes.size()];
    java.util.Arrays.fill(offsets, -1);
    int off = 0;
    for (int att = 0; att < natts; att++) {
      if (hasNulls && isNull(page, tuple + HeapTupleHeader.T_BITS_OFFSET, att)) {
        continue;
      }
      Attribute a = attributes.get(att);
      if (a.length() == Attribute.VARLENA && data + off < end && page[data + off] != 0) {
        // short varlena: no alignment padding before it
      } else {
        off = align(off, a.alignment());
      }
      int at = data + off;
      int len = a.length() == Attribute.VARLENA ? varlenaSize(page, at, end) : a.length();
      if (at + len > end) {
        throw new IllegalArgumentException("attribute " + a.name() + " at " + at + " length " + len
            + " extends beyond the tuple end " + end);
      }
      offsets[att] = at;
      lengths[att] = len;
      off += len;
    }
    return new Tuple(page, offsets, lengths);
  }

  /** att_isnull: the bit of attribute {@code att} (from 0) is clear in the null bitmap at {@code bits}. */
  static boolean isNull(byte[] page, int bits, int att) {
    return (page[bits + (att >> 3)] & (1 << (att & 7))) == 0;
  }

  /** att_align_nominal of offset {@code off} to {@code alignment} bytes. */
  static int align(int off, int alignment) {
    return (off + alignment - 1) & ~(alignment - 1);
  }

  /** VARATT_IS_1B: a varlena whose first byte is {@code first} has a 1-byte header (short, or external). */
  static boolean isOneByteHeader(int first) {
    return (first & 0x01) == 0x01;
  }

  /** VARATT_IS_4B_U: a varlena whose first byte is {@code first} is inline, uncompressed, of a 4-byte header. */
  static boolean isUncompressedFourByteHeader(int first) {
    return (first & VARATT_4B_MASK) == 0x00;
  }

  /**
   * VARSIZE_ANY: the whole size of the varlena at {@code at}, header included.
   *
   * @throws IllegalArgumentException when its header lies past {@code end} or names no known tag
   */
  static int varlenaSize(byte[] page, int at, int end) {
    if (at >= end) {
      throw new IllegalArgumentException("varlena header at " + at + " beyond the tuple end " + end);
    }
    int first = page[at] & 0xFF;
    if (first == VARATT_1B_E_HEADER) {
      if (at + 1 >= end) {
        throw new IllegalArgumentException("external varlena tag beyond the tuple end");
      }
      int tag = page[at + 1] & 0xFF;
      int payload = switch (tag) {
        case VARTAG_ONDISK -> SIZEOF_VARATT_EXTERNAL;
        case VARTAG_INDIRECT, VARTAG_EXPANDED_RO, VARTAG_EXPANDED_RW -> SIZEOF_POINTER;
        default -> throw new IllegalArgumentException("unknown external varlena tag " + tag);
      };
      return VARHDRSZ_EXTERNAL + payload;
    }
    if (isOneByteHeader(first)) {
      return first >>> 1; // VARSIZE_1B
    }
    if (at + VARHDRSZ > end) {
      throw new IllegalArgumentException("4-byte varlena header beyond the tuple end");
    }
    return (LittleEndian.int32(page, at) >>> 2) & 0x3FFF_FFFF; // VARSIZE_4B
  }

  public boolean isNull(int att) {
    return offsets[att] < 0;
  }

  public int int32(int att) {
    return LittleEndian.int32(page, present(att));
  }

  public short int16(int att) {
    return LittleEndian.int16(page, present(att));
  }

  public float float4(int att) {
    return Float.intBitsToFloat(LittleEndian.int32(page, present(att)));
  }

  public boolean bool(int att) {
    return page[present(att)] != 0;
  }

  /** A "char" column. */
  public char character(int att) {
    return (char) (page[present(att)] & 0xFF);
  }

  /** A name column: its bytes up to the first NUL, in the database's encoding. */
  public byte[] name(int att) {
    int at = present(att);
    int len = 0;
    while (len < NAMEDATALEN && page[at + len] != 0) {
      len++;
    }
    return java.util.Arrays.copyOfRange(page, at, at + len);
  }

  /**
   * The payload of an inline, uncompressed varlena, or null when the value is null,
   * compressed or stored out of line (catalog values this tool needs are small and inline).
   */
  public byte[] varlenaPayload(int att) {
    if (isNull(att)) {
      return null;
    }
    int at = offsets[att];
    int first = page[at] & 0xFF;
    if (first == VARATT_1B_E_HEADER) {
      return null;
    }
    if (isOneByteHeader(first)) {
      return java.util.Arrays.copyOfRange(page, at + VARHDRSZ_SHORT, at + lengths[att]);
    }
    if (!isUncompressedFourByteHeader(first)) {
      return null; // VARATT_IS_4B_C: compressed inline
    }
    return java.util.Arrays.copyOfRange(page, at + VARHDRSZ, at + lengths[att]);
  }

  private int present(int att) {
    int at = offsets[att];
    if (at < 0) {
      throw new IllegalStateException("attribute " + att + " is null");
    }
    return at;
  }
}
