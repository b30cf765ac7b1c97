package io.pgbloat.sample;

import io.pgbloat.io.read.BlockList;
import java.util.Arrays;

/**
 * Chooses one relation's sample: the last block with certainty, the rest split by the
 * visibility map into all-visible and other blocks, each sampled by {@link BlockSampler} in
 * proportion to its size (at least two blocks from a non-empty stratum, so that each has a
 * variance). A sample as large as the relation reads everything.
 */
public final class SamplePlanner {
  /** Blocks at the end of the relation read with certainty. */
  static final int TAIL_BLOCKS = 1;
  /** The least a sampled stratum gets, so its variance can be estimated. */
  static final int MIN_PER_STRATUM = 2;

  private SamplePlanner() {}

  /**
   * @param blocks N
   * @param allVisible the all-visible blocks among 0 .. N-1
   * @param sampleSize n, blocks to read in all
   * @param seed this relation's seed ({@link BlockSampler#seedFor})
   */
  public static RelationSample plan(long blocks, BlockList allVisible, long sampleSize, long seed) {
    if (sampleSize >= blocks || blocks <= TAIL_BLOCKS + MIN_PER_STRATUM) {
      return RelationSample.everything(blocks);
    }
    long body = blocks - TAIL_BLOCKS;
    BlockList visible = allVisible.split(countBelow(allVisible, body))[0];
    long[] population = new long[Stratum.COUNT];
    population[Stratum.TAKE_ALL.ordinal()] = TAIL_BLOCKS;
    population[Stratum.ALL_VISIBLE.ordinal()] = visible.size();
    population[Stratum.OTHER.ordinal()] = body - visible.size();

    long[] planned = allocate(population, body, sampleSize);

    // Each stratum's sample as positions within the stratum, then mapped to block numbers.
    long[] visibleBlocks = positionsToBlocks(
        BlockSampler.sample(population[Stratum.ALL_VISIBLE.ordinal()], planned[Stratum.ALL_VISIBLE.ordinal()],
            seed ^ Stratum.ALL_VISIBLE.ordinal()), visible);
    long[] otherBlocks = positionsToBlocks(
        BlockSampler.sample(population[Stratum.OTHER.ordinal()], planned[Stratum.OTHER.ordinal()],
            seed ^ Stratum.OTHER.ordinal()), complement(visible, body));
    return merge(blocks, population, planned, visibleBlocks, otherBlocks, true);
  }

  /**
   * More blocks for a relation sampled before: {@code sampleSize} in all, allocated to the
   * sampled strata in proportion to their size, the new ones drawn from each stratum's blocks
   * not read yet. An SRS of the rest added to an SRS is an SRS of the union, so the earlier
   * and the new sums estimate together as one sample.
   *
   * @return only the new blocks, with {@code planned} the strata's totals after both
   */
  public static RelationSample extend(RelationSample earlier, BlockList allVisible, long sampleSize, long seed) {
    long blocks = earlier.blocks();
    if (earlier.isComplete()) {
      return new RelationSample(blocks, earlier.population(), earlier.planned(), BlockList.of(), new byte[0]);
    }
    long body = blocks - TAIL_BLOCKS;
    BlockList visible = allVisible.split(countBelow(allVisible, body))[0];
    long[] population = earlier.population();
    long[] planned = earlier.planned().clone();
    long[] wanted = allocate(population, body, sampleSize);
    long[][] added = new long[Stratum.COUNT][];
    for (Stratum h : new Stratum[] {Stratum.ALL_VISIBLE, Stratum.OTHER}) {
      int i = h.ordinal();
      BlockList stratumBlocks = h == Stratum.ALL_VISIBLE ? visible : complement(visible, body);
      BlockList unread = minus(stratumBlocks, earlier, h);
      long extra = Math.max(0, wanted[i] - planned[i]);
      added[i] = positionsToBlocks(BlockSampler.sample(unread.size(), extra, seed ^ (0x100L + i)), unread);
      planned[i] += added[i].length;
    }
    return merge(blocks, population, planned, added[Stratum.ALL_VISIBLE.ordinal()],
        added[Stratum.OTHER.ordinal()], false);
  }

  /**
   * The blocks of {@code stratumBlocks} that {@code earlier} did not read in stratum
   * {@code h}: the stratum's runs cut at each block read, in one pass over both sorted lists.
   */
  private static BlockList minus(BlockList stratumBlocks, RelationSample earlier, Stratum h) {
    java.util.List<Long> read = new java.util.ArrayList<>();
    BlockList sample = earlier.sample();
    long position = 0;
    for (int r = 0; r < sample.runCount(); r++) {
      for (long b = sample.runStart(r); b < sample.runStart(r) + sample.runLength(r); b++, position++) {
        if (earlier.stratumAt(position) == h) {
          read.add(b);
        }
      }
    }
    BlockList.Builder unread = new BlockList.Builder();
    int next = 0; // first read block not yet passed
    for (int r = 0; r < stratumBlocks.runCount(); r++) {
      long from = stratumBlocks.runStart(r);
      long end = from + stratumBlocks.runLength(r);
      while (next < read.size() && read.get(next) < end) {
        long cut = read.get(next++);
        if (cut >= from) {
          unread.addRun(from, (int) (cut - from));
          from = cut + 1;
        }
      }
      unread.addRun(from, (int) (end - from));
    }
    return unread.build();
  }

  /**
   * Blocks per stratum for {@code sampleSize} in all: the tail whole, the rest in proportion to
   * the two sampled strata's sizes, each {@link #clamp}ed.
   */
  private static long[] allocate(long[] population, long body, long sampleSize) {
    long[] planned = new long[Stratum.COUNT];
    planned[Stratum.TAKE_ALL.ordinal()] = TAIL_BLOCKS;
    long rest = Math.max(0, sampleSize - TAIL_BLOCKS);
    long visibleShare = Math.round((double) rest * population[Stratum.ALL_VISIBLE.ordinal()] / body);
    planned[Stratum.ALL_VISIBLE.ordinal()] = clamp(visibleShare, population[Stratum.ALL_VISIBLE.ordinal()]);
    planned[Stratum.OTHER.ordinal()] = clamp(rest - visibleShare, population[Stratum.OTHER.ordinal()]);
    return planned;
  }

  /** At least {@link #MIN_PER_STRATUM} (or all of a smaller stratum), at most all of it. */
  private static long clamp(long share, long population) {
    return Math.min(population, Math.max(share, Math.min(MIN_PER_STRATUM, population)));
  }

  private static long countBelow(BlockList list, long limit) {
    long n = 0;
    for (int r = 0; r < list.runCount(); r++) {
      long start = list.runStart(r);
      if (start >= limit) {
        break;
      }
      n += Math.min(list.runLength(r), limit - start);
    }
    return n;
  }

  /** Blocks 0 .. limit-1 not in {@code list}. */
  private static BlockList complement(BlockList list, long limit) {
    BlockList.Builder b = new BlockList.Builder();
    long next = 0;
    for (int r = 0; r < list.runCount() && next < limit; r++) {
      long start = Math.min(list.runStart(r), limit);
      if (start > next) {
        b.addRun(next, (int) (start - next));
      }
      next = list.runStart(r) + list.runLength(r);
    }
    if (next < limit) {
      for (long from = next; from < limit; from += Integer.MAX_VALUE) {
        b.addRun(from, (int) Math.min(Integer.MAX_VALUE, limit - from));
      }
    }
    return b.build();
  }

  /** The blocks at the (increasing) positions {@code positions} of {@code stratum}. */
  private static long[] positionsToBlocks(BlockList positions, BlockList stratum) {
    long[] blocks = new long[(int) positions.size()];
    int run = 0;
    long runFirstPosition = 0; // position of stratum run `run`'s first block
    int i = 0;
    for (int p = 0; p < positions.runCount(); p++) {
      for (long pos = positions.runStart(p); pos < positions.runStart(p) + positions.runLength(p); pos++) {
        while (pos >= runFirstPosition + stratum.runLength(run)) {
          runFirstPosition += stratum.runLength(run);
          run++;
        }
        blocks[i++] = stratum.runStart(run) + (pos - runFirstPosition);
      }
    }
    return blocks;
  }

  private static RelationSample merge(long blocks, long[] population, long[] planned, long[] visible, long[] other,
      boolean withTail) {
    int total = visible.length + other.length + (withTail ? TAIL_BLOCKS : 0);
    byte[] strata = new byte[total];
    BlockList.Builder sample = new BlockList.Builder();
    int v = 0;
    int o = 0;
    for (int i = 0; i < visible.length + other.length; i++) {
      boolean takeVisible = o >= other.length || (v < visible.length && visible[v] < other[o]);
      sample.add(takeVisible ? visible[v++] : other[o++]);
      strata[i] = (byte) (takeVisible ? Stratum.ALL_VISIBLE : Stratum.OTHER).ordinal();
    }
    for (long tail = blocks - TAIL_BLOCKS; withTail && tail < blocks; tail++) {
      sample.add(tail);
    }
    Arrays.fill(strata, visible.length + other.length, total, (byte) Stratum.TAKE_ALL.ordinal());
    return new RelationSample(blocks, population, planned, sample.build(), strata);
  }
}
