package io.pgbloat.page;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The data checksum of a page, {@code pg_checksum_page} in
 * {@code src/include/storage/checksum_impl.h}: {@link #N_SUMS} parallel FNV-1a-like sums
 * over the page as 32-bit words (pd_checksum taken as zero), two extra rounds of zeros,
 * XOR-folded, mixed with the block number, reduced to 1..65535.
 */
public final class PageChecksum {
  /** N_SUMS: number of parallel checksum lanes. */
  static final int N_SUMS = 32;
  /** FNV_PRIME: the 32-bit FNV prime. */
  static final int FNV_PRIME = 16777619;
  /** checksumBaseOffsets: each lane's random starting value. */
  private static final int[] CHECKSUM_BASE_OFFSETS = {
    0x5B1F36E9, 0xB8525960, 0x02AB50AA, 0x1DE66D2A,
    0x79FF467A, 0x9BB9F8A3, 0x217E7CD2, 0x83E13D2C,
    0xF8D4474F, 0xE39EB970, 0x42C6AE16, 0x993216FA,
    0x7B093B5D, 0x98DAFF3C, 0xF718902A, 0x0B1C9CDB,
    0xE58F764B, 0x187636BC, 0x5D7B3BB1, 0xE73DE7DE,
    0x92BEC979, 0xCCA6C0B2, 0x304A0979, 0x85AA43D4,
    0x783125BB, 0x6CA8EAA2, 0xE407EAC6, 0x4B5CFC3E,
    0x9FBF8C76, 0x15CA20BE, 0xF2CA9FD3, 0x959BD756,
  };
  /** Index of the 32-bit word holding pd_checksum (bytes 8..9) and pd_flags (10..11). */
  private static final int CHECKSUM_WORD = PageHeader.PD_CHECKSUM_OFFSET / Integer.BYTES;
  private static final int CHECKSUM_WORD_MASK = 0xFFFF_0000; // keeps pd_flags, zeroes pd_checksum
  private static final int WORDS = PageHeader.BLCKSZ / Integer.BYTES;

  /** The page's words followed by the two rounds of zeros checksum_impl.h mixes in last. */
  private static final int ROUNDS_OF_ZEROS = 2;
  private static final int MIXED_WORDS = WORDS + ROUNDS_OF_ZEROS * N_SUMS;

  // scratch space, reused page after page: one instance serves one thread
  private final int[] words = new int[MIXED_WORDS];
  /**
   * Every lane's running sum, one row of N_SUMS after another: sums[i + N_SUMS] mixes word i
   * into sums[i], lane i % N_SUMS. Written out as one long loop with a dependence N_SUMS apart
   * (instead of a short loop over the lanes inside a loop over the rows), it is vectorized by
   * the JIT, as PostgreSQL counts on its C compiler to vectorize the lanes.
   */
  private final int[] sums = new int[MIXED_WORDS + N_SUMS];

  /** The checksum of {@code page} as block {@code blockNumber}; allocates, for one-off use. */
  public static int compute(byte[] page, long blockNumber) {
    return new PageChecksum().of(page, blockNumber);
  }

  /**
   * The checksum {@code page} should carry as block {@code blockNumber} of its relation
   * fork (not of its segment file).
   */
  public int of(byte[] page, long blockNumber) {
    // One bulk copy into ints (an intrinsic) keeps the hot loop free of per-word byte handling;
    // the words after the page stay zero.
    ByteBuffer.wrap(page).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(words, 0, WORDS);
    words[CHECKSUM_WORD] &= CHECKSUM_WORD_MASK;
    System.arraycopy(CHECKSUM_BASE_OFFSETS, 0, sums, 0, N_SUMS);
    for (int i = 0; i < MIXED_WORDS; i++) {
      sums[i + N_SUMS] = comp(sums[i], words[i]);
    }
    int result = 0;
    for (int j = MIXED_WORDS; j < MIXED_WORDS + N_SUMS; j++) {
      result ^= sums[j];
    }
    result ^= (int) blockNumber;
    return (int) (Integer.toUnsignedLong(result) % 65535) + 1;
  }

  /** CHECKSUM_COMP. */
  private static int comp(int checksum, int value) {
    int tmp = checksum ^ value;
    return tmp * FNV_PRIME ^ (tmp >>> 17);
  }
}
