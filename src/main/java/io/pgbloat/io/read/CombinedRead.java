package io.pgbloat.io.read;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One read of a {@link PrefetchStream}: {@code count} adjacent blocks from {@code first}, of
 * which the stream hands out those the sample asked for. Sorted blocks are merged into reads of
 * at most B blocks ({@link IoSettings#combineLimit}); runs apart by at most
 * {@link IoSettings#gapLimit} unasked blocks are read as one, the blocks between read and
 * dropped, when one larger read costs the device less than two (as columnar readers coalesce
 * ranges up to a hole limit).
 *
 * @param first the read's first block
 * @param count blocks read
 * @param wanted the blocks handed out, as (offset from {@code first}, length) pairs; null when
 *     all {@code count} are
 * @param handedOut how many blocks {@code wanted} holds
 */
record CombinedRead(long first, int count, int[] wanted, int handedOut) {
  /** A read of {@code count} blocks, all handed out. */
  CombinedRead(long first, int count) {
    this(first, count, null, count);
  }

  /** Whether the block at {@code offset} from {@code first} is handed out (not only read through). */
  boolean isWanted(int offset) {
    if (wanted == null) {
      return true;
    }
    for (int i = 0; i < wanted.length; i += 2) {
      if (offset >= wanted[i] && offset < wanted[i] + wanted[i + 1]) {
        return true;
      }
    }
    return false;
  }

  /** The reads covering {@code blocks}, in order. */
  static List<CombinedRead> of(BlockList blocks, int combineLimit, int gapLimit) {
    List<CombinedRead> reads = new ArrayList<>();
    long first = -1; // the read being grown: its first block, its end, its runs
    long end = -1;
    int[] runs = new int[8];
    int pairs = 0;
    for (int r = 0; r < blocks.runCount(); r++) {
      long start = blocks.runStart(r);
      int length = blocks.runLength(r);
      if (first >= 0 && start - end <= gapLimit && start + length - first <= combineLimit) {
        if (2 * pairs + 2 > runs.length) {
          runs = Arrays.copyOf(runs, 2 * runs.length);
        }
        runs[2 * pairs] = (int) (start - first);
        runs[2 * pairs + 1] = length;
        pairs++;
        end = start + length;
        continue;
      }
      if (first >= 0) {
        reads.add(read(first, end, runs, pairs));
      }
      // a run longer than B: whole reads of B, the rest left open for the next runs to join
      while (length > combineLimit) {
        reads.add(new CombinedRead(start, combineLimit));
        start += combineLimit;
        length -= combineLimit;
      }
      first = start;
      end = start + length;
      runs[0] = 0;
      runs[1] = length;
      pairs = 1;
    }
    if (first >= 0) {
      reads.add(read(first, end, runs, pairs));
    }
    return reads;
  }

  private static CombinedRead read(long first, long end, int[] runs, int pairs) {
    int count = (int) (end - first);
    if (pairs == 1) {
      return new CombinedRead(first, count);
    }
    int handedOut = 0;
    for (int i = 1; i < 2 * pairs; i += 2) {
      handedOut += runs[i];
    }
    return new CombinedRead(first, count, Arrays.copyOf(runs, 2 * pairs), handedOut);
  }
}
