package io.pgbloat.sample;

import java.io.Serializable;

/**
 * How many blocks of each relation to read: all of them, a fixed number, a percentage, or as
 * many as a target relative standard error needs (a pilot sample first, then more).
 *
 * @param mode which of the four
 * @param value the number of blocks, the percentage, or the target RSE (a fraction)
 */
public record SampleSize(Mode mode, double value) implements Serializable {
  public enum Mode { FULL_SCAN, BLOCKS, PERCENT, TARGET_RSE }

  /**
   * The default: 3000 blocks per relation (24 MB), chosen where the relative standard error of
   * dead and free bytes on the ground-truth tables had fallen low enough to act on
   * (docs/accuracy.md, "Sample size"); a table of up to 3000 blocks is read exactly.
   */
  public static final SampleSize DEFAULT = blocks(3000);
  /** Blocks in the pilot sample of a target-RSE run: enough for a usable variance (docs/accuracy.md). */
  public static final long PILOT_BLOCKS = 300;

  public static SampleSize fullScan() {
    return new SampleSize(Mode.FULL_SCAN, 0);
  }

  public static SampleSize blocks(long n) {
    if (n < 1) {
      throw new IllegalArgumentException("the sample needs at least 1 block, not " + n);
    }
    return new SampleSize(Mode.BLOCKS, n);
  }

  public static SampleSize percent(double p) {
    if (!(p > 0 && p <= 100)) {
      throw new IllegalArgumentException("the sample percentage must be in (0, 100], not " + p);
    }
    return new SampleSize(Mode.PERCENT, p);
  }

  public static SampleSize targetRse(double r) {
    if (!(r > 0 && r < 1)) {
      throw new IllegalArgumentException("the target relative standard error must be in (0, 1), e.g. 0.02, not " + r);
    }
    return new SampleSize(Mode.TARGET_RSE, r);
  }

  /** Blocks to read first from a relation of {@code blocks} blocks (the pilot, for a target). */
  public long firstSample(long blocks) {
    return switch (mode) {
      case FULL_SCAN -> blocks;
      case BLOCKS -> (long) value;
      case PERCENT -> (long) Math.ceil(value / 100.0 * blocks);
      case TARGET_RSE -> PILOT_BLOCKS;
    };
  }
}
