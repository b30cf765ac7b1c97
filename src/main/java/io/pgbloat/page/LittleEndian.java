package io.pgbloat.page;

/**
 * Absolute little-endian reads from a byte array. PostgreSQL writes its files in the
 * machine's byte order; every supported platform (x86-64, aarch64) is little-endian. Plain
 * shifts rather than VarHandles: they are as fast once compiled and much faster before,
 * which matters in the first second of a task.
 */
public final class LittleEndian {
  private LittleEndian() {}

  /** Unsigned 8-bit value at {@code offset}. */
  public static int uint8(byte[] bytes, int offset) {
    return bytes[offset] & 0xFF;
  }

  /** Unsigned 16-bit value at {@code offset}. */
  public static int uint16(byte[] bytes, int offset) {
    return (bytes[offset] & 0xFF) | (bytes[offset + 1] & 0xFF) << 8;
  }

  /** Signed 16-bit value at {@code offset}. */
  public static short int16(byte[] bytes, int offset) {
    return (short) uint16(bytes, offset);
  }

  /** Signed 32-bit value at {@code offset}; xids and oids are read as this and compared unsigned. */
  public static int int32(byte[] bytes, int offset) {
    return (bytes[offset] & 0xFF) | (bytes[offset + 1] & 0xFF) << 8 | (bytes[offset + 2] & 0xFF) << 16
        | bytes[offset + 3] << 24;
  }

  /** Unsigned 32-bit value at {@code offset}, widened to a long. */
  public static long uint32(byte[] bytes, int offset) {
    return int32(bytes, offset) & 0xFFFF_FFFFL;
  }

  /** Signed 64-bit value at {@code offset}. */
  public static long int64(byte[] bytes, int offset) {
    return uint32(bytes, offset) | (long) int32(bytes, offset + 4) << 32;
  }
}
