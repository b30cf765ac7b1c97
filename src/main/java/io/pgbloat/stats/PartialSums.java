package io.pgbloat.stats;

import io.pgbloat.page.HeapPageStats;
import java.io.Serializable;

/**
 * Exact sums over the pages of one relation that one task read: n, and per {@link Measure}
 * Σy, Σy², min y and max y. All 64-bit integers (a page's figure is at most 8192, so Σy²
 * stays exact for 10^11 pages): merging is exact, associative and commutative, so the result
 * does not depend on how the pages were split into tasks or in which order tasks finished.
 */
public final class PartialSums implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Measure[] MEASURES = Measure.values();

  private long pages;
  private long badPages;
  private long newPages;
  private long withoutOutcome;
  private final Moments moments = new Moments(MEASURES.length);

  /** Adds one page read. A bad page is counted as bad and adds nothing else. */
  public void add(HeapPageStats page) {
    if (page.isBad()) {
      badPages++;
      return;
    }
    pages++;
    if (page.isNew()) {
      newPages++;
    }
    withoutOutcome += page.withoutOutcome();
    for (int m = 0; m < MEASURES.length; m++) {
      moments.add(m, MEASURES[m].of(page));
    }
  }

  /**
   * Adds {@code tuples} decided without an outcome to pages already added: pages counted before
   * the commit log was known, whose undecided tuples it then decided so.
   */
  public void addWithoutOutcome(long tuples) {
    withoutOutcome += tuples;
  }

  /** Adds {@code other} into this. */
  public PartialSums merge(PartialSums other) {
    pages += other.pages;
    badPages += other.badPages;
    newPages += other.newPages;
    withoutOutcome += other.withoutOutcome;
    moments.merge(other.moments);
    return this;
  }

  /** Longs before the measures in {@link #toLongs}: n, bad pages, new pages, tuples without outcome. */
  private static final int COUNTS = 4;

  /**
   * The sums as longs, for a run's state: n, bad pages, new pages, tuples decided without an
   * outcome, then per {@link Measure} in declaration order Σy, Σy², min y and max y.
   */
  public long[] toLongs() {
    long[] longs = new long[COUNTS + Moments.longs(MEASURES.length)];
    longs[0] = pages;
    longs[1] = badPages;
    longs[2] = newPages;
    longs[3] = withoutOutcome;
    moments.writeTo(longs, COUNTS);
    return longs;
  }

  /**
   * The sums {@link #toLongs} wrote.
   *
   * @throws IllegalArgumentException when {@code longs} is not of their length
   */
  public static PartialSums fromLongs(long[] longs) {
    if (longs.length != COUNTS + Moments.longs(MEASURES.length)) {
      throw new IllegalArgumentException(longs.length + " sums where a table's pages have "
          + (COUNTS + Moments.longs(MEASURES.length)));
    }
    PartialSums sums = new PartialSums();
    sums.pages = longs[0];
    sums.badPages = longs[1];
    sums.newPages = longs[2];
    sums.withoutOutcome = longs[3];
    sums.moments.readFrom(longs, COUNTS);
    return sums;
  }

  /** Good pages counted (n). */
  public long pages() {
    return pages;
  }

  public long badPages() {
    return badPages;
  }

  public long newPages() {
    return newPages;
  }

  /** Tuples decided on a transaction the copy holds no outcome for (see HeapPageStats). */
  public long withoutOutcome() {
    return withoutOutcome;
  }

  /** Pages read, good and bad. */
  public long pagesRead() {
    return pages + badPages;
  }

  public long sum(Measure m) {
    return moments.sum(m.ordinal());
  }

  public long sumOfSquares(Measure m) {
    return moments.sumOfSquares(m.ordinal());
  }

  /** The smallest value of {@code m} among the good pages (undefined when there are none). */
  public long min(Measure m) {
    return moments.min(m.ordinal());
  }

  /** The largest value of {@code m} among the good pages (undefined when there are none). */
  public long max(Measure m) {
    return moments.max(m.ordinal());
  }

  /** {@code m} over these pages as a stratum of {@code population} pages ({@link StratumSample}). */
  StratumSample sample(Measure m, long population, boolean knownZero) {
    return moments.sample(m.ordinal(), population, pagesRead(), pages, knownZero);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PartialSums p && pages == p.pages && badPages == p.badPages && newPages == p.newPages
        && withoutOutcome == p.withoutOutcome && moments.equals(p.moments);
  }

  @Override
  public int hashCode() {
    return moments.hashCode() * 31 + Long.hashCode(pages);
  }
}
