package io.pgbloat.io.read;

import java.io.Serializable;
import java.util.Arrays;

/**
 * An increasing set of block numbers, stored as runs of adjacent blocks: a full scan is one
 * run, a block sample many short ones. Immutable.
 */
public final class BlockList implements Serializable {
  private static final long serialVersionUID = 1L;

  private final long[] starts;
  private final int[] lengths;
  private final long size;

  private BlockList(long[] starts, int[] lengths) {
    this.starts = starts;
    this.lengths = lengths;
    long n = 0;
    for (int length : lengths) {
      n += length;
    }
    this.size = n;
  }

  /** Blocks {@code first .. first + count - 1}, as runs of at most Integer.MAX_VALUE. */
  public static BlockList range(long first, long count) {
    Builder b = new Builder();
    for (long done = 0; done < count; ) {
      int run = (int) Math.min(Integer.MAX_VALUE, count - done);
      b.addRun(first + done, run);
      done += run;
    }
    return b.build();
  }

  /** The blocks of a sorted, duplicate-free array. */
  public static BlockList of(long... sortedBlocks) {
    Builder b = new Builder();
    for (long block : sortedBlocks) {
      b.add(block);
    }
    return b.build();
  }

  public long size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  public int runCount() {
    return starts.length;
  }

  public long runStart(int run) {
    return starts[run];
  }

  public int runLength(int run) {
    return lengths[run];
  }

  /** Hands {@code block} every block of the list, in increasing order. */
  public void forEach(java.util.function.LongConsumer block) {
    for (int run = 0; run < starts.length; run++) {
      for (long b = starts[run]; b < starts[run] + lengths[run]; b++) {
        block.accept(b);
      }
    }
  }

  /** Whether {@code block} is one of the blocks. */
  public boolean contains(long block) {
    int r = Arrays.binarySearch(starts, block);
    if (r >= 0) {
      return true;
    }
    int before = -r - 2; // the run starting last before the block
    return before >= 0 && block < starts[before] + lengths[before];
  }

  /** The blocks of this list or of {@code other}. */
  public BlockList union(BlockList other) {
    Builder b = new Builder();
    int i = 0;
    int j = 0;
    long start = -1;
    long end = -1; // the run being gathered: [start, end)
    while (i < starts.length || j < other.starts.length) {
      boolean mine = j == other.starts.length || i < starts.length && starts[i] <= other.starts[j];
      long s = mine ? starts[i] : other.starts[j];
      long e = s + (mine ? lengths[i++] : other.lengths[j++]);
      if (start >= 0 && s <= end) {
        end = Math.max(end, e);
        continue;
      }
      addRange(b, start, end);
      start = s;
      end = e;
    }
    addRange(b, start, end);
    return b.build();
  }

  /** Adds [start, end) to {@code b} in runs of at most Integer.MAX_VALUE; nothing when start is negative. */
  private static void addRange(Builder b, long start, long end) {
    for (long s = start; start >= 0 && s < end; s += Integer.MAX_VALUE) {
      b.addRun(s, (int) Math.min(Integer.MAX_VALUE, end - s));
    }
  }

  /** How many of the blocks lie before {@code block}. */
  public long countBefore(long block) {
    long n = 0;
    for (int r = 0; r < starts.length && starts[r] < block; r++) {
      n += Math.min(lengths[r], block - starts[r]);
    }
    return n;
  }

  /**
   * Splits off the first {@code count} blocks: [head, tail].
   */
  public BlockList[] split(long count) {
    Builder head = new Builder();
    Builder tail = new Builder();
    long taken = 0;
    for (int r = 0; r < starts.length; r++) {
      long start = starts[r];
      int length = lengths[r];
      long toHead = Math.max(0, Math.min(length, count - taken));
      if (toHead > 0) {
        head.addRun(start, (int) toHead);
      }
      if (toHead < length) {
        tail.addRun(start + toHead, (int) (length - toHead));
      }
      taken += toHead;
    }
    return new BlockList[] {head.build(), tail.build()};
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BlockList other && Arrays.equals(starts, other.starts) && Arrays.equals(lengths, other.lengths);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(starts) + Arrays.hashCode(lengths);
  }

  @Override
  public String toString() {
    return "BlockList[" + size + " blocks in " + starts.length + " runs]";
  }

  /** Builds a list from blocks or runs given in increasing order; adjacent ones merge. */
  public static final class Builder {
    private long[] starts = new long[8];
    private int[] lengths = new int[8];
    private int runs;

    public Builder add(long block) {
      return addRun(block, 1);
    }

    public Builder addRun(long start, int length) {
      if (length <= 0) {
        return this;
      }
      if (runs > 0) {
        long end = starts[runs - 1] + lengths[runs - 1];
        if (start < end) {
          throw new IllegalArgumentException("blocks must increase: " + start + " after " + (end - 1));
        }
        if (start == end && (long) lengths[runs - 1] + length <= Integer.MAX_VALUE) {
          lengths[runs - 1] += length;
          return this;
        }
      }
      if (runs == starts.length) {
        starts = Arrays.copyOf(starts, runs * 2);
        lengths = Arrays.copyOf(lengths, runs * 2);
      }
      starts[runs] = start;
      lengths[runs] = length;
      runs++;
      return this;
    }

    public BlockList build() {
      return new BlockList(Arrays.copyOf(starts, runs), Arrays.copyOf(lengths, runs));
    }
  }
}
