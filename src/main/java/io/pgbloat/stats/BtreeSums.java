package io.pgbloat.stats;

import io.pgbloat.page.BtreePage;
import io.pgbloat.page.BtreePageKind;
import io.pgbloat.page.BtreePageStats;
import java.io.Serializable;
import java.util.Arrays;

/**
 * Exact sums over the pages of one btree index that one task read, the metapage excepted:
 * n, and per {@link BtreeMeasure} Σy and Σy², plus the one cross product a ratio estimate
 * needs, Σ(leaf free space × leaf max_avail) (the other ratio, fragments over leaves, needs
 * none: a fragment is a leaf, so its cross product is Σfragments). All 64-bit integers: a
 * page's pgstatindex values are at most 8192, so even the cross product (at most 2^26 a page)
 * stays exact for 10^11 pages; a leaf's build bytes, its posting lists spelled out one tuple a
 * heap TID, are about 26 kB at most for a small key (squares exact for 10^10 pages), and below
 * 2^24 even for a damaged leaf, whose tuples are checked to hold at most a page. Merging is
 * exact, associative and commutative.
 */
public final class BtreeSums implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final BtreeMeasure[] MEASURES = BtreeMeasure.values();

  private long pages;
  private long badPages;
  private long newPages;
  private long metaPages;
  private long badMetaPages;
  private final long[] sums = new long[MEASURES.length];
  private final long[] squares = new long[MEASURES.length];
  private long freeTimesMaxAvail;

  /**
   * Adds one page read. A bad page is counted as bad and adds nothing else; the metapage is
   * noted and adds nothing (pgstatindex scans from block 1, so the population of pages these
   * sums describe is blocks 1 to N - 1).
   */
  public BtreeSums add(BtreePageStats page) {
    if (page.isBad()) {
      badPages++;
      if (page.block() == BtreePage.BTREE_METAPAGE) {
        badMetaPages++;
      }
      return this;
    }
    if (page.kind() == BtreePageKind.META) {
      metaPages++;
      return this;
    }
    pages++;
    if (page.kind() == BtreePageKind.NEW) {
      newPages++;
    }
    for (int m = 0; m < MEASURES.length; m++) {
      long y = MEASURES[m].of(page);
      sums[m] += y;
      squares[m] += y * y;
    }
    freeTimesMaxAvail += (long) page.leafFreeSpace() * page.leafMaxAvail();
    return this;
  }

  /** Adds {@code other} into this. */
  public BtreeSums merge(BtreeSums other) {
    pages += other.pages;
    badPages += other.badPages;
    newPages += other.newPages;
    metaPages += other.metaPages;
    badMetaPages += other.badMetaPages;
    for (int m = 0; m < MEASURES.length; m++) {
      sums[m] += other.sums[m];
      squares[m] += other.squares[m];
    }
    freeTimesMaxAvail += other.freeTimesMaxAvail;
    return this;
  }

  /** Good pages counted (n), the metapage not among them. */
  public long pages() {
    return pages;
  }

  public long badPages() {
    return badPages;
  }

  /** Bad pages among blocks 1 to N - 1: bad pages but a bad metapage. */
  public long badPagesAfterMeta() {
    return badPages - badMetaPages;
  }

  /** New (all-zero) pages among the good ones; each is in INTERNAL_PAGES too. */
  public long newPages() {
    return newPages;
  }

  /** How many times the (good) metapage was read: 0 or 1 for one pass over an index. */
  public long metaPages() {
    return metaPages;
  }

  /** Pages read, good, bad and the (good) metapage. */
  public long pagesRead() {
    return pages + badPages + metaPages;
  }

  public long sum(BtreeMeasure m) {
    return sums[m.ordinal()];
  }

  public long sumOfSquares(BtreeMeasure m) {
    return squares[m.ordinal()];
  }

  /** Σ(LEAF_FREE_SPACE × LEAF_MAX_AVAIL) over the pages. */
  public long sumOfFreeTimesMaxAvail() {
    return freeTimesMaxAvail;
  }

  /** Σ(FRAGMENTS × LEAF_PAGES): a fragment is always a leaf, so this is Σ FRAGMENTS. */
  public long sumOfFragmentsTimesLeaves() {
    return sum(BtreeMeasure.FRAGMENTS);
  }

  /** The exact totals these sums give when every page of the index was read. */
  public IndexTotals totals() {
    return new IndexTotals(sum(BtreeMeasure.LEAF_PAGES), sum(BtreeMeasure.INTERNAL_PAGES),
        sum(BtreeMeasure.EMPTY_PAGES), sum(BtreeMeasure.DELETED_PAGES), sum(BtreeMeasure.LEAF_FREE_SPACE),
        sum(BtreeMeasure.LEAF_MAX_AVAIL), sum(BtreeMeasure.FRAGMENTS));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BtreeSums s && pages == s.pages && badPages == s.badPages && newPages == s.newPages
        && metaPages == s.metaPages && badMetaPages == s.badMetaPages && freeTimesMaxAvail == s.freeTimesMaxAvail && Arrays.equals(sums, s.sums)
        && Arrays.equals(squares, s.squares);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(sums) * 31 + Long.hashCode(pages);
  }
}
