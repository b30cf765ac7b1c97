package io.pgbloat.page;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Absolute little-endian reads from a byte array. PostgreSQL writes its files in the
 * machine's byte order; every supported platform (x86-64, aarch64) is little-endian.
 */
public final class LittleEndian {
  private static final VarHandle INT16 =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT32 =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT64 =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private LittleEndian() {}

  /** Unsigned 8-bit value at {@code offset}. */
  public static int uint8(byte[] bytes, int offset) {
    return bytes[offset] & 0xFF;
  }

  /** Unsigned 16-bit value at {@code offset}. */
  public static int uint16(byte[] bytes, int offset) {
    return ((short) INT16.get(bytes, offset)) & 0xFFFF;
  }

  /** Signed 16-bit value at {@code offset}. */
  public static short int16(byte[] bytes, int offset) {
    return (short) INT16.get(bytes, offset);
  }

  /** Signed 32-bit value at {@code offset}; xids and oids are read as this and compared unsigned. */
  public static int int32(byte[] bytes, int offset) {
    return (int) INT32.get(bytes, offset);
  }

  /** Unsigned 32-bit value at {@code offset}, widened to a long. */
  public static long uint32(byte[] bytes, int offset) {
    return ((int) INT32.get(bytes, offset)) & 0xFFFF_FFFFL;
  }

  /** Signed 64-bit value at {@code offset}. */
  public static long int64(byte[] bytes, int offset) {
    return (long) INT64.get(bytes, offset);
  }
}
