package io.pgbloat.figures;

import io.pgbloat.page.IndexMetapage;
import io.pgbloat.page.PageHeader;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The ten columns of {@code pgstatindex()} for one btree index, computed as
 * {@code pgstatindex_impl} in {@code contrib/pgstattuple/pgstatindex.c} (the same in 13-18)
 * computes them, down to how it prints its two percentages.
 *
 * @param version btm_version of the metapage
 * @param treeLevel btm_level
 * @param indexSize bytes: every block of the index, metapage included
 * @param rootBlockNo btm_root
 * @param internalPages pages neither leaf, deleted nor half-dead (new pages included)
 * @param leafPages live leaf pages
 * @param emptyPages half-dead pages (P_IGNORE but not deleted)
 * @param deletedPages deleted pages
 * @param avgLeafDensity 100 - 100·Σfree/Σmax_avail over leaves, as pgstatindex returns it
 *     (rounded to two decimals); NaN when there is no leaf space (no leaf pages)
 * @param leafFragmentation 100·fragments/leaf_pages, likewise rounded; NaN without leaves
 */
public record IndexFigures(
    long version, long treeLevel, long indexSize, long rootBlockNo, long internalPages, long leafPages,
    long emptyPages, long deletedPages, double avgLeafDensity, double leafFragmentation) implements Serializable {

  /**
   * The figures from the metapage and the sums over blocks 1 to N - 1 (exact or estimated).
   *
   * <p>pgstatindex's index_size is (1 + leaf + internal + deleted + empty) × BLCKSZ, which is
   * N × BLCKSZ because it classifies every page (a page it cannot read stops it with an error).
   * Here it is N × BLCKSZ whatever the sums say, so that bad pages, left out of the counts, do
   * not shrink the file, and an estimate keeps the size it is known to have.
   *
   * @param meta the decoded metapage, or null when it was not read or is bad (version, level and
   *     root are then 0)
   * @param blocks N, the index's length in blocks
   * @param totals the sums (estimated totals are rounded to whole pages in the counts)
   */
  public static IndexFigures of(IndexMetapage meta, long blocks, IndexTotals totals) {
    IndexMetapage m = meta != null ? meta : IndexMetapage.BTREE_UNREAD;
    return new IndexFigures(m.version(), m.treeLevel(), blocks * PageHeader.BLCKSZ, m.rootBlockNo(),
        Math.round(totals.internalPages()), Math.round(totals.leafPages()), Math.round(totals.emptyPages()),
        Math.round(totals.deletedPages()),
        avgLeafDensity(totals.leafFreeSpace(), totals.leafMaxAvail()),
        leafFragmentation(totals.fragments(), totals.leafPages()));
  }

  /**
   * avg_leaf_density as pgstatindex returns it: {@code 100.0 - (double) free_space /
   * (double) max_avail * 100.0}, printed with "%.2f" and read back as float8; "NaN" when
   * max_avail is 0 (pgstatindex tests max_avail, not leaf_pages, for this one).
   */
  public static double avgLeafDensity(double leafFreeSpace, double leafMaxAvail) {
    if (!(leafMaxAvail > 0)) {
      return Double.NaN;
    }
    return avgLeafDensity(leafFreeSpace / leafMaxAvail);
  }

  /** avg_leaf_density from the ratio of free space to max_avail, as pgstatindex computes it; NaN for NaN. */
  public static double avgLeafDensity(double freeRatio) {
    return asPrinted(100.0 - freeRatio * 100.0);
  }

  /**
   * leaf_fragmentation as pgstatindex returns it: {@code (double) fragments / (double)
   * leaf_pages * 100.0}, printed with "%.2f" and read back; "NaN" when leaf_pages is 0.
   */
  public static double leafFragmentation(double fragments, double leafPages) {
    if (!(leafPages > 0)) {
      return Double.NaN;
    }
    return leafFragmentation(fragments / leafPages);
  }

  /** leaf_fragmentation from the ratio of fragments to leaves, as pgstatindex computes it; NaN for NaN. */
  public static double leafFragmentation(double fragmentRatio) {
    return asPrinted(fragmentRatio * 100.0);
  }

  /**
   * What C's {@code printf("%.2f", value)} prints, read back by float8in. glibc rounds the
   * exact binary value of the double to nearest, ties to even; Java's
   * {@code String.format("%.2f")} rounds the shortest decimal form half up instead (it gives
   * "0.13" for 0.125 where C gives "0.12"), so the exact BigDecimal of the double is used.
   */
  public static double asPrinted(double value) {
    return Double.parseDouble(printed(value));
  }

  /** The text of C's {@code printf("%.2f", value)} on glibc; "NaN" for NaN as pgstatindex writes it. */
  public static String printed(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "inf" : "-inf";
    }
    return new BigDecimal(value).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
  }
}
