package io.pgbloat.sample;

/**
 * The strata a relation's blocks are split into before sampling; each is sampled on its own
 * and the stratified estimator combines them.
 */
public enum Stratum {
  /**
   * Blocks read with certainty: the relation's last block (recent appends leave it partly
   * filled, unlike the rest, and a sample that misses it under-states the variance), or
   * every block when the sample covers the relation.
   */
  TAKE_ALL,
  /** Blocks the visibility map marks all-visible: no dead tuples, little churn. */
  ALL_VISIBLE,
  /** Every other block. */
  OTHER;

  public static final int COUNT = values().length;

  public static Stratum of(int ordinal) {
    return values()[ordinal];
  }

  /** The stratum at {@code position} of a tag array; a null array tags everything TAKE_ALL. */
  static Stratum at(byte[] strata, long position) {
    return strata == null ? TAKE_ALL : of(strata[(int) position]);
  }
}
