package io.pgbloat.rebuild;

import io.pgbloat.page.HashPage;
import io.pgbloat.page.PageHeader;
import io.pgbloat.stats.Estimate;

/**
 * What a {@code REINDEX} of a hash index would give back: its size less that of a fresh
 * build. A build ({@code src/backend/access/hash/hash.c}, hashbuild, and {@code hashpage.c},
 * _hash_init and _hash_init_metabuffer, the same 13-18) first writes the metapage, the buckets
 * it chooses for the tuples it expects, and one bitmap page; it chooses ⌊expected / ffactor⌋
 * buckets (at least 2), rounded up to a whole split-point phase (_hash_spareindex,
 * _hash_get_totalbuckets in {@code hashutil.c}), where ffactor is the tuples that fill a page to
 * the fillfactor: BLCKSZ·fillfactor/100 / {@link HashPage#ITEM_WIDTH}, at least 10. It then
 * inserts the tuples one by one ({@code hashinsert.c}, _hash_doinsert), and past ffactor tuples
 * a bucket splits one bucket more ({@code hashpage.c}, _hash_expandtable), allocating the
 * buckets of the next phase as it enters it; a bucket past a page's
 * {@link HashPage#TUPLES_PER_PAGE} tuples chains overflow pages, which a split's cleanup frees
 * for reuse but never gives back ({@link HashBuildOverflow}).
 *
 * <p>The tuples it expects are the planner's estimate of its table's
 * ({@code estimate_rel_size}, which the catalog's statistics give); without one the model
 * takes them as the tuples it inserts. It inserts the index's live items thinned as its table's
 * rows are ({@link #insertedTuples}). It assumes the hash codes spread over the
 * buckets at random: many equal keys, which share a bucket, overflow it and make a build
 * larger than modelled. A build that sorts its tuples first (hashbuild, when its first buckets
 * reach maintenance_work_mem or shared_buffers, which a copy's files do not say) and then
 * splits fills its overflow pages in another order, modelled as if it did not sort.
 */
public final class HashRebuild {
  private HashRebuild() {}

  /** hashm_ffactor: the tuples a bucket page is filled with at {@code fillfactor}. */
  static int ffactor(int fillfactor) {
    return Math.max(10, PageHeader.BLCKSZ * fillfactor / 100 / HashPage.ITEM_WIDTH);
  }

  /** The buckets _hash_init_metabuffer chooses for {@code tuples}. */
  static long buckets(double tuples, int fillfactor) {
    double wanted = tuples / ffactor(fillfactor);
    if (wanted <= 2.0) {
      return 2;
    }
    return totalBuckets(spareIndex((long) Math.min(wanted, 0x40000000)));
  }

  /** _hash_spareindex: the split-point phase that holds bucket count {@code buckets}. */
  static int spareIndex(long buckets) {
    int group = 64 - Long.numberOfLeadingZeros(buckets - 1); // pg_ceil_log2_32
    if (group < HashPage.HASH_SPLITPOINT_GROUPS_WITH_ONE_PHASE) {
      return group;
    }
    int phaseBits = HashPage.HASH_SPLITPOINT_PHASE_BITS;
    return HashPage.HASH_SPLITPOINT_GROUPS_WITH_ONE_PHASE
        + ((group - HashPage.HASH_SPLITPOINT_GROUPS_WITH_ONE_PHASE) << phaseBits)
        + (int) (((buckets - 1) >> (group - (phaseBits + 1))) & ((1 << phaseBits) - 1));
  }

  /** _hash_get_totalbuckets: the buckets allocated up to split-point phase {@code phase}. */
  static long totalBuckets(int phase) {
    if (phase < HashPage.HASH_SPLITPOINT_GROUPS_WITH_ONE_PHASE) {
      return 1L << phase;
    }
    int phaseBits = HashPage.HASH_SPLITPOINT_PHASE_BITS;
    int group = HashPage.HASH_SPLITPOINT_GROUPS_WITH_ONE_PHASE
        + ((phase - HashPage.HASH_SPLITPOINT_GROUPS_WITH_ONE_PHASE) >> phaseBits);
    long phases = ((phase - HashPage.HASH_SPLITPOINT_GROUPS_WITH_ONE_PHASE) & ((1 << phaseBits) - 1)) + 1;
    return (1L << (group - 1)) + ((1L << (group - 1)) >> phaseBits) * phases;
  }

  /** The blocks of a fresh build that expects as many tuples as it inserts, {@code tuples}. */
  static long freshBlocks(double tuples, int fillfactor) {
    return builtBlocks(tuples, tuples, fillfactor);
  }

  /**
   * The blocks of a build that expects {@code expected} tuples and inserts {@code inserted}:
   * the metapage, the buckets allocated, the overflow pages and the bitmap pages. The buckets
   * are those it starts with, or, once the tuples pass ffactor a bucket, one for each ffactor
   * tuples (_hash_doinsert splits when hashm_ntuples exceeds ffactor·(hashm_maxbucket + 1)), up
   * to the end of that count's split-point phase.
   */
  static long builtBlocks(double expected, double inserted, int fillfactor) {
    int ffactor = ffactor(fillfactor);
    long initial = buckets(expected, fillfactor);
    long buckets = Math.max(initial, (long) Math.ceil(inserted / ffactor));
    long allocated = buckets == initial ? initial : totalBuckets(spareIndex(buckets));
    long overflow = HashBuildOverflow.pages(initial, buckets, inserted, ffactor);
    long bitmaps = overflow == 0 ? 1 : 1 + (overflow - 1) / (HashPage.BITMAP_BITS - 1);
    return 1 + allocated + overflow + bitmaps;
  }

  /**
   * The tuples a build inserts: the index's {@code liveItems} thinned to {@code keptShare}, the
   * share of the table's indexed heap pointers that point to live rows ({@link IndexBuild#keptShare}).
   * An entry of a row updated (not HOT) or deleted stays in the index until VACUUM, and a build
   * indexes the live rows alone (hashbuild's table_index_build_scan); a hash index leaves rows
   * of NULL keys out, so its entries are thinned as the rows are rather than taken at the live
   * rows' count. The interval is that of both ends; the error both errors in relative terms.
   */
  public static Estimate insertedTuples(Estimate liveItems, Estimate keptShare) {
    if (!liveItems.isKnown() || (keptShare.isExact() && keptShare.value() >= 1)) {
      return liveItems;
    }
    double value = liveItems.value() * keptShare.value();
    if (liveItems.isExact() && keptShare.isExact()) {
      return Estimate.exact(value);
    }
    double relative = Math.hypot(liveItems.value() > 0 ? liveItems.standardError() / liveItems.value() : 0,
        keptShare.value() > 0 ? keptShare.standardError() / keptShare.value() : 0);
    return new Estimate(value, value * relative, Math.min(value, liveItems.low() * keptShare.low()),
        Math.max(value, liveItems.high() * keptShare.high()));
  }

  /**
   * reclaimable_bytes of a hash index of {@code blocks} blocks whose build would insert
   * {@code liveItems} expecting as many (the planner's estimate unknown); see
   * {@link #reclaimableBytes(long, Estimate, double, int)}.
   */
  public static Estimate reclaimableBytes(long blocks, Estimate liveItems, int fillfactor) {
    return reclaimableBytes(blocks, liveItems, Double.NaN, fillfactor);
  }

  /**
   * reclaimable_bytes of a hash index of {@code blocks} blocks whose build inserts
   * {@code inserted} tuples expecting {@code expected} (NaN when unknown: then as many as it
   * inserts); the interval is the model at the ends of the inserted tuples' interval, the SE
   * theirs in bucket pages.
   */
  public static Estimate reclaimableBytes(long blocks, Estimate inserted, double expected, int fillfactor) {
    if (!inserted.isKnown()) {
      return Estimate.unknown();
    }
    double size = (double) blocks * PageHeader.BLCKSZ;
    double value = size - builtBytes(expected, inserted.value(), fillfactor);
    if (inserted.isExact()) {
      return Estimate.exact(value);
    }
    double low = size - builtBytes(expected, inserted.high(), fillfactor);
    double high = size - builtBytes(expected, inserted.low(), fillfactor);
    double se = inserted.standardError() * PageHeader.BLCKSZ / ffactor(fillfactor);
    return new Estimate(value, se, Math.min(low, value), Math.max(high, value));
  }

  /** The bytes of a build inserting {@code inserted} tuples expecting {@code expected}, or as many when NaN. */
  private static double builtBytes(double expected, double inserted, int fillfactor) {
    return (double) PageHeader.BLCKSZ * builtBlocks(Double.isNaN(expected) ? inserted : expected, inserted, fillfactor);
  }
}
