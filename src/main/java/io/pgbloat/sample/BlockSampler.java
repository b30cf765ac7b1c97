package io.pgbloat.sample;

import io.pgbloat.io.read.BlockList;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * A simple random sample without replacement of n of N items, in increasing order: Knuth's
 * Algorithm S (TAOCP vol. 2, 3.4.2) as PostgreSQL's {@code BlockSampler} implements it
 * ({@code src/backend/utils/misc/sampling.c}), with one random number per selected item.
 *
 * <p>The random stream is SplitMix64 ({@link SplittableRandom}, whose algorithm is fixed),
 * seeded from the run's seed and the relation's name, so the same seed picks the same blocks
 * of the same table on any machine, whatever the parallelism.
 */
public final class BlockSampler {
  /** The run's seed when none is given (--seed), printed with every sampled row. */
  public static final long DEFAULT_SEED = 1;

  private final long population;
  private final long wanted;
  private final SplittableRandom random;
  private long scanned; // t: items passed so far
  private long selected; // m: items selected so far

  /**
   * @param population N, the number of items (blocks)
   * @param sampleSize n; at least N selects everything
   * @param seed the stream's seed, see {@link #seedFor}
   */
  public BlockSampler(long population, long sampleSize, long seed) {
    this.population = population;
    this.wanted = Math.min(sampleSize, population);
    this.random = new SplittableRandom(seed);
  }

  /**
   * The seed for one relation's sample: the run's seed mixed with a 64-bit FNV-1a hash of the
   * relation's name (stable across copies of the data directory, unlike its file number).
   */
  public static long seedFor(long runSeed, String... nameParts) {
    long h = 0xcbf29ce484222325L;
    for (String part : nameParts) {
      for (byte b : part.getBytes(StandardCharsets.UTF_8)) {
        h = (h ^ (b & 0xFF)) * 0x100000001b3L;
      }
      h = (h ^ 0xFF) * 0x100000001b3L; // separator: ("ab","c") differs from ("a","bc")
    }
    return runSeed ^ h;
  }

  /** min(n, N): how many items {@link #next()} will return. */
  public long sampleSize() {
    return wanted;
  }

  public boolean hasNext() {
    return scanned < population && selected < wanted;
  }

  /** The next selected item, larger than the one before. */
  public long next() {
    long remaining = population - scanned; // K
    long toSelect = wanted - selected;     // k
    if (toSelect >= remaining) {
      selected++; // need all the rest
      return scanned++;
    }
    // Skip the current item with probability 1 - k/K; each time the test succeeds, V is
    // reinterpreted as uniform on (0, p), so one random number serves the whole run of skips.
    double v = nextFraction();
    double p = 1.0 - (double) toSelect / (double) remaining;
    while (v < p) {
      scanned++;
      remaining--;
      p *= 1.0 - (double) toSelect / (double) remaining;
    }
    selected++;
    return scanned++;
  }

  /** A uniform number in (0, 1), as sampler_random_fract (zero excluded). */
  private double nextFraction() {
    double v;
    do {
      v = random.nextDouble();
    } while (v == 0.0);
    return v;
  }

  /** The whole sample of {@code sampleSize} of {@code population}, as a block list. */
  public static BlockList sample(long population, long sampleSize, long seed) {
    BlockSampler sampler = new BlockSampler(population, sampleSize, seed);
    BlockList.Builder blocks = new BlockList.Builder();
    while (sampler.hasNext()) {
      blocks.add(sampler.next());
    }
    return blocks.build();
  }
}
