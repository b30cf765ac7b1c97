package io.pgbloat.stats;

import io.pgbloat.page.IndexPageStats;
import java.io.Serializable;
import java.util.Arrays;

/**
 * Exact sums over the pages of one hash, GiST, GIN, SP-GiST or BRIN index that one task read:
 * block 0 (the metapage; GiST's root) on its own, since it is always read and PostgreSQL's
 * functions treat it apart; the pages the planner read whole (a GIN pending list, a BRIN range
 * map: {@code sample/IndexWholeBlocks}; every page of an index read whole) on their own,
 * exactly; and over the other
 * pages of blocks 1 to N - 1, n good pages and per {@link IndexMeasure} Σy, Σy², min and max.
 * All 64-bit integers: merging is exact, associative and commutative.
 */
public final class IndexPageSums implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final IndexMeasure[] MEASURES = IndexMeasure.values();

  private long pages;
  private long badPages;
  private boolean badFirstBlock;
  private boolean goodFirstBlock;
  private long wholePages;
  private final long[] whole = new long[MEASURES.length];
  private final long[] first = new long[MEASURES.length];
  private final Moments moments = new Moments(MEASURES.length);

  /**
   * Adds one page read, {@code readWhole} when the plan reads every page of its kind (rather
   * than a sample); a bad page is counted as bad and adds nothing else.
   */
  public IndexPageSums add(IndexPageStats page, boolean readWhole) {
    if (page.isBad()) {
      badPages++;
      badFirstBlock |= page.block() == 0;
      return this;
    }
    if (page.block() == 0) {
      goodFirstBlock = true;
      for (int m = 0; m < MEASURES.length; m++) {
        first[m] = MEASURES[m].of(page);
      }
      return this;
    }
    if (readWhole) {
      wholePages++;
      for (int m = 0; m < MEASURES.length; m++) {
        whole[m] += MEASURES[m].of(page);
      }
      return this;
    }
    pages++;
    for (int m = 0; m < MEASURES.length; m++) {
      moments.add(m, MEASURES[m].of(page));
    }
    return this;
  }

  /** Adds {@code other} into this. */
  public IndexPageSums merge(IndexPageSums other) {
    pages += other.pages;
    badPages += other.badPages;
    badFirstBlock |= other.badFirstBlock;
    goodFirstBlock |= other.goodFirstBlock;
    wholePages += other.wholePages;
    for (int m = 0; m < MEASURES.length; m++) {
      first[m] += other.first[m]; // block 0 is in one range only
      whole[m] += other.whole[m];
    }
    moments.merge(other.moments);
    return this;
  }

  /** Pages read whole. */
  public long wholePages() {
    return wholePages;
  }

  /** {@code m} over the pages of the kinds read whole. */
  public long whole(IndexMeasure m) {
    return whole[m.ordinal()];
  }

  /** Good pages counted after block 0, those of the kinds read whole excepted (n). */
  public long pages() {
    return pages;
  }

  public long badPages() {
    return badPages;
  }

  /** Whether block 0 was read and good. */
  public boolean firstBlockRead() {
    return goodFirstBlock;
  }

  /** Bad pages among blocks 1 to N - 1. */
  public long badPagesAfterFirst() {
    return badPages - (badFirstBlock ? 1 : 0);
  }

  /** {@code m} on block 0 (0 when it was bad). */
  public long first(IndexMeasure m) {
    return first[m.ordinal()];
  }

  public long sum(IndexMeasure m) {
    return moments.sum(m.ordinal());
  }

  public long sumOfSquares(IndexMeasure m) {
    return moments.sumOfSquares(m.ordinal());
  }

  /** The smallest value of {@code m} among the good pages after block 0 (undefined when none). */
  public long min(IndexMeasure m) {
    return moments.min(m.ordinal());
  }

  /** The largest value of {@code m} among the good pages after block 0 (undefined when none). */
  public long max(IndexMeasure m) {
    return moments.max(m.ordinal());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof IndexPageSums s && pages == s.pages && badPages == s.badPages && badFirstBlock == s.badFirstBlock
        && goodFirstBlock == s.goodFirstBlock
        && Arrays.equals(first, s.first) && moments.equals(s.moments) && wholePages == s.wholePages
        && Arrays.equals(whole, s.whole);
  }

  @Override
  public int hashCode() {
    return moments.hashCode() * 31 + Long.hashCode(pages);
  }
}
