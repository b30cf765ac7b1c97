package io.pgbloat.stats;

import java.io.Serializable;
import java.util.Arrays;

/**
 * Per measure, over the pages added: Σy, Σy², min y and max y, as exact 64-bit integers (a
 * page's figure is at most BLCKSZ, so Σy² stays exact for 10^11 pages; a btree leaf's build
 * bytes, its posting lists spelled out one tuple a heap TID, are about 26 kB at most for a small
 * key, so exact for 10^10 pages). Merging is exact, associative and commutative. The shared
 * core of {@link PartialSums} and {@link IndexPageSums}; {@link #sample} gives one measure to
 * {@link StratifiedEstimator}.
 */
final class Moments implements Serializable {
  private static final long serialVersionUID = 1L;

  private final long[] sums;
  private final long[] squares;
  private final long[] mins;
  private final long[] maxes;

  Moments(int measures) {
    sums = new long[measures];
    squares = new long[measures];
    mins = new long[measures];
    maxes = new long[measures];
    Arrays.fill(mins, Long.MAX_VALUE);
    Arrays.fill(maxes, Long.MIN_VALUE);
  }

  /** Adds one page's value {@code y} of measure {@code m}. */
  void add(int m, long y) {
    sums[m] += y;
    squares[m] += y * y;
    mins[m] = Math.min(mins[m], y);
    maxes[m] = Math.max(maxes[m], y);
  }

  /**
   * Adds one page's value {@code y}, 0 or 1, of a measure that counts pages of a kind: its Σy² is
   * its Σy and its extremes follow from Σy and n ({@link #pageCountSample}), so Σy alone is kept.
   */
  void count(int m, long y) {
    sums[m] += y;
  }

  void merge(Moments other) {
    for (int m = 0; m < sums.length; m++) {
      sums[m] += other.sums[m];
      squares[m] += other.squares[m];
      mins[m] = Math.min(mins[m], other.mins[m]);
      maxes[m] = Math.max(maxes[m], other.maxes[m]);
    }
  }

  /** Longs {@link #writeTo} writes for {@code measures} measures. */
  static int longs(int measures) {
    return 4 * measures;
  }

  /** Per measure, in order: Σy, Σy², min y, max y. */
  void writeTo(long[] into, int at) {
    for (int m = 0; m < sums.length; m++, at += 4) {
      into[at] = sums[m];
      into[at + 1] = squares[m];
      into[at + 2] = mins[m];
      into[at + 3] = maxes[m];
    }
  }

  /** Reads back what {@link #writeTo} wrote at {@code at}. */
  void readFrom(long[] from, int at) {
    for (int m = 0; m < sums.length; m++, at += 4) {
      sums[m] = from[at];
      squares[m] = from[at + 1];
      mins[m] = from[at + 2];
      maxes[m] = from[at + 3];
    }
  }

  long sum(int m) {
    return sums[m];
  }

  long sumOfSquares(int m) {
    return squares[m];
  }

  /** The smallest value added (undefined when none was). */
  long min(int m) {
    return mins[m];
  }

  /** The largest value added (undefined when none was). */
  long max(int m) {
    return maxes[m];
  }

  /**
   * Measure {@code m} over these pages as a stratum of {@code population} pages, of which
   * {@code pagesRead} were read and {@code pages} were good and added here.
   */
  StratumSample sample(int m, long population, long pagesRead, long pages, boolean knownZero) {
    return new StratumSample(population, pagesRead, pages, sums[m], squares[m], mins[m], maxes[m], knownZero);
  }

  /** As {@link #sample}, of a measure added by {@link #count}: 1 on Σy of the n pages, 0 on the rest. */
  StratumSample pageCountSample(int m, long population, long pagesRead, long pages, boolean knownZero) {
    long sum = sums[m];
    long min = pages > 0 && sum == pages ? 1 : 0;
    return new StratumSample(population, pagesRead, pages, sum, sum, min, sum > 0 ? 1 : 0, knownZero);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Moments x && Arrays.equals(sums, x.sums) && Arrays.equals(squares, x.squares)
        && Arrays.equals(mins, x.mins) && Arrays.equals(maxes, x.maxes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(sums);
  }
}
