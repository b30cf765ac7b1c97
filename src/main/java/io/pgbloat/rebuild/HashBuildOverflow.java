package io.pgbloat.rebuild;

import io.pgbloat.page.HashPage;

/**
 * The overflow pages a hash build allocates as it inserts its tuples ({@code hashinsert.c},
 * _hash_doinsert; {@code hashovfl.c}, _hash_addovflpage and _hash_getovflpage;
 * {@code hashpage.c}, _hash_expandtable and _hash_splitbucket, the same 13-18). A bucket whose
 * tuples pass a page's {@link HashPage#TUPLES_PER_PAGE} chains an overflow page, and a page
 * more for each page's worth beyond. A split moves a bucket's tuples that now hash to the new
 * bucket and, the build's backend holding the only pin, cleans the old bucket at once and
 * squeezes its chain, whose emptied overflow pages the free-page bitmap then hands to the next
 * bucket that overflows. So the overflow pages in the file are the most that were ever in use
 * at once.
 *
 * <p>With B the largest power of 2 not above M buckets (hashm_lowmask + 1) and n = M − B
 * buckets split in this doubling, the unsplit buckets n..B−1 each take a 1/B share of the hash
 * codes and the 2n split ones a 1/(2B) share. The model takes each bucket's tuples as Poisson
 * with its share's mean (hash codes spread at random), so that the overflow pages in use with T
 * tuples are (B − n)·o(T/B) + 2n·o(T/(2B)), o(λ) being the expected pages past the first of a
 * bucket of Poisson(λ) tuples; and takes the most in use as the largest of that along the
 * build: with its first buckets as the tuples reach ffactor a bucket (or all of them), then
 * after each split as they reach ffactor a bucket again, the last with all of them.
 */
final class HashBuildOverflow {
  /** The points of a doubling at which the pages in use are evaluated: they change smoothly within one. */
  private static final int POINTS_PER_DOUBLING = 128;
  /** Below this a tail of the Poisson distribution adds nothing to a page count. */
  private static final double NEGLIGIBLE = 1e-12;
  /** A sum of Poisson probabilities stops when a term falls below this share of it. */
  private static final double PRECISION = 1e-16;
  /** Below this n, ln n! is summed; from it on, Stirling's series is exact to double precision. */
  private static final int STIRLING_FROM = 16;

  private HashBuildOverflow() {}

  /**
   * The overflow pages of a build that starts with {@code initialBuckets}, ends with
   * {@code finalBuckets} and inserts {@code tuples}, ffactor {@code ffactor}.
   */
  static long pages(long initialBuckets, long finalBuckets, double tuples, int ffactor) {
    double most = inUse(initialBuckets, Math.min(tuples, (double) ffactor * initialBuckets));
    for (long from = initialBuckets + 1; from <= finalBuckets; ) {
      long to = Math.min(finalBuckets, 2 * Long.highestOneBit(from) - 1); // the rest of this doubling
      long step = Math.max(1, (to - from) / POINTS_PER_DOUBLING);
      for (long m = from; m <= to; m = m == to ? to + 1 : Math.min(to, m + step)) {
        most = Math.max(most, inUse(m, m == finalBuckets ? tuples : (double) ffactor * m));
      }
      from = to + 1;
    }
    return Math.round(most);
  }

  /** The overflow pages in use, expected, with {@code buckets} buckets holding {@code tuples}. */
  static double inUse(long buckets, double tuples) {
    long doubling = Long.highestOneBit(buckets);
    long split = buckets - doubling;
    return (doubling - split) * pagesPastFirst(tuples / doubling) + 2 * split * pagesPastFirst(tuples / (2.0 * doubling));
  }

  /** o(λ): the expected pages past the first of a bucket of Poisson(λ) tuples, Σ_k P(X &gt; k·TUPLES_PER_PAGE). */
  static double pagesPastFirst(double mean) {
    double pages = 0;
    for (long k = 1; ; k++) {
      double tail = upperTail(mean, k * HashPage.TUPLES_PER_PAGE);
      pages += tail;
      if (tail < NEGLIGIBLE) {
        return pages;
      }
    }
  }

  /** P(X &gt; m) for X of Poisson({@code mean}), summed from the side of m away from the mean. */
  static double upperTail(double mean, long m) {
    if (mean <= 0) {
      return 0;
    }
    double first = Math.exp((m + 1) * Math.log(mean) - mean - lnFactorial(m + 1)); // P(X = m + 1)
    if (m + 1 > mean) { // the terms fall from m + 1 up
      double sum = 0;
      double term = first;
      for (long k = m + 1; term > sum * PRECISION; k++) {
        sum += term;
        term *= mean / (k + 1);
      }
      return sum;
    }
    double lower = 0; // P(X <= m): the terms fall from m down
    double term = first * (m + 1) / mean;
    for (long k = m; k >= 0 && term > lower * PRECISION; k--) {
      lower += term;
      term *= k / mean;
    }
    return Math.max(0, 1 - lower);
  }

  /** ln n!: summed below {@link #STIRLING_FROM}, else Stirling's series to its n⁻⁵ term. */
  static double lnFactorial(long n) {
    if (n < STIRLING_FROM) {
      double sum = 0;
      for (long k = 2; k <= n; k++) {
        sum += Math.log(k);
      }
      return sum;
    }
    double x = n;
    return x * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI * x) + 1 / (12 * x) - 1 / (360 * x * x * x)
        + 1 / (1260 * x * x * x * x * x);
  }
}
