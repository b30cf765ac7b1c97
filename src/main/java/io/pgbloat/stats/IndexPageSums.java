package io.pgbloat.stats;

import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexPageKind;
import io.pgbloat.page.IndexPageStats;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Exact sums over the pages of one index, of any access method, that one task read: block 0
 * (the metapage; GiST's root) on its own, since it is always read and PostgreSQL's functions
 * treat it apart; the pages the planner read whole (a GIN pending list, a BRIN range map:
 * {@code sample/IndexWholeBlocks}; every page of an index read whole) on their own, exactly;
 * and over the other pages of blocks 1 to N - 1, n good pages and per {@link IndexMeasure} Σy,
 * Σy², min and max ({@link Moments}), over the measures of the index's access method
 * ({@link IndexMeasure#of}). All 64-bit integers: merging is exact, associative and commutative.
 */
public final class IndexPageSums implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final IndexMeasure[] MEASURES = IndexMeasure.values();

  /** The ordinals of the measures summed. */
  private final int[] measured;
  /** Of those, the ones that count pages of a kind ({@link Moments#count}), and the others. */
  private final int[] pageCounts;
  private final int[] others;
  private long pages;
  private long badPages;
  private boolean badFirstBlock;
  private boolean goodFirstBlock;
  private long wholePages;
  private final long[] whole = new long[MEASURES.length];
  private final long[] first = new long[MEASURES.length];
  private final Moments moments = new Moments(MEASURES.length);

  /** Sums of the pages of an index of access method {@code am}, in its measures. */
  public IndexPageSums(IndexAccessMethod am) {
    this(IndexMeasure.of(am));
  }

  /** Sums in every method's measures, of pages of any method. */
  public IndexPageSums() {
    this(List.of(MEASURES));
  }

  private IndexPageSums(List<IndexMeasure> measures) {
    measured = measures.stream().mapToInt(IndexMeasure::ordinal).toArray();
    pageCounts = measures.stream().filter(IndexMeasure::countsPages).mapToInt(IndexMeasure::ordinal).toArray();
    others = measures.stream().filter(m -> !m.countsPages()).mapToInt(IndexMeasure::ordinal).toArray();
  }

  /** The measures summed, in order. */
  public List<IndexMeasure> measures() {
    return Arrays.stream(measured).mapToObj(m -> MEASURES[m]).toList();
  }

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
      for (int m : measured) {
        first[m] = MEASURES[m].of(page);
      }
      return this;
    }
    if (readWhole) {
      wholePages++;
      for (int m : measured) {
        whole[m] += MEASURES[m].of(page);
      }
      return this;
    }
    pages++;
    for (int m : pageCounts) {
      moments.count(m, MEASURES[m].of(page));
    }
    for (int m : others) {
      moments.add(m, MEASURES[m].of(page));
    }
    return this;
  }

  /** Adds {@code other}, sums in the same measures, into this. */
  public IndexPageSums merge(IndexPageSums other) {
    if (!Arrays.equals(measured, other.measured)) {
      throw new IllegalArgumentException("sums of an index in other measures: " + other.measures());
    }
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

  /** Longs before the per-measure parts in {@link #toLongs}. */
  private static final int COUNTS = 5;

  /**
   * The sums as longs, for a run's state: n, bad pages, block 0 bad (1) or not (0), block 0
   * good, pages read whole, then per {@link IndexMeasure} in declaration order its sum over the
   * pages read whole, its value on block 0, and Σy, Σy², min y and max y over the others.
   * Which measures are summed follows from the access method.
   */
  public long[] toLongs() {
    int m = MEASURES.length;
    long[] longs = new long[COUNTS + 2 * m + Moments.longs(m)];
    longs[0] = pages;
    longs[1] = badPages;
    longs[2] = badFirstBlock ? 1 : 0;
    longs[3] = goodFirstBlock ? 1 : 0;
    longs[4] = wholePages;
    System.arraycopy(whole, 0, longs, COUNTS, m);
    System.arraycopy(first, 0, longs, COUNTS + m, m);
    moments.writeTo(longs, COUNTS + 2 * m);
    return longs;
  }

  /**
   * The sums {@link #toLongs} wrote, of an index of access method {@code am}.
   *
   * @throws IllegalArgumentException when {@code longs} is not of their length
   */
  public static IndexPageSums fromLongs(IndexAccessMethod am, long[] longs) {
    int m = MEASURES.length;
    if (longs.length != COUNTS + 2 * m + Moments.longs(m)) {
      throw new IllegalArgumentException(longs.length + " sums where an index's pages have "
          + (COUNTS + 2 * m + Moments.longs(m)));
    }
    IndexPageSums sums = new IndexPageSums(am);
    sums.pages = longs[0];
    sums.badPages = longs[1];
    sums.badFirstBlock = longs[2] != 0;
    sums.goodFirstBlock = longs[3] != 0;
    sums.wholePages = longs[4];
    System.arraycopy(longs, COUNTS, sums.whole, 0, m);
    System.arraycopy(longs, COUNTS + m, sums.first, 0, m);
    sums.moments.readFrom(longs, COUNTS + 2 * m);
    return sums;
  }

  /** Pages read whole. */
  public long wholePages() {
    return wholePages;
  }

  /** {@code m} over the pages of the kinds read whole. */
  public long whole(IndexMeasure m) {
    return whole[m.ordinal()];
  }

  /** Good pages counted after block 0, those read whole and those sampled. */
  public long pagesAfterFirst() {
    return pages + wholePages;
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

  /** {@code m} over every good page read, block 0 included: exact. */
  public long read(IndexMeasure m) {
    return first(m) + whole(m) + sum(m);
  }

  /**
   * {@code m} over the sampled pages of an index of {@code blocks} blocks: a stratum of blocks
   * 1 to N - 1 but those read whole, read whole itself when every one of them was read.
   */
  public StratumSample sampled(IndexMeasure m, long blocks) {
    return sampled(m, blocks, Set.of());
  }

  /**
   * {@code m} over the sampled pages, as {@link #sampled(IndexMeasure, long)}, where every page
   * of the {@code kindsAllRead} is among those read whole: a count of those pages is known to
   * be none there.
   */
  public StratumSample sampled(IndexMeasure m, long blocks, Set<IndexPageKind> kindsAllRead) {
    long population = Math.max(0, blocks - 1 - wholePages);
    long pagesRead = pages + badPagesAfterFirst();
    return m.countsPages() ? moments.pageCountSample(m.ordinal(), population, pagesRead, pages,
        m.countsPagesOf(kindsAllRead)) : moments.sample(m.ordinal(), population, pagesRead, pages, false);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof IndexPageSums s && Arrays.equals(measured, s.measured) && pages == s.pages && badPages == s.badPages && badFirstBlock == s.badFirstBlock
        && goodFirstBlock == s.goodFirstBlock
        && Arrays.equals(first, s.first) && moments.equals(s.moments) && wholePages == s.wholePages
        && Arrays.equals(whole, s.whole);
  }

  @Override
  public int hashCode() {
    return moments.hashCode() * 31 + Long.hashCode(pages);
  }
}
