package io.pgbloat.rebuild;

import io.pgbloat.page.HashPage;
import io.pgbloat.page.PageHeader;
import io.pgbloat.stats.Estimate;

/**
 * What a {@code REINDEX} of a hash index would give back: its size less that of a fresh
 * build. A build ({@code src/backend/access/hash/hash.c}, hashbuild, and {@code hashpage.c},
 * _hash_init and _hash_init_metabuffer, the same 13-18) writes the metapage, the buckets it
 * chose for the tuples it expects, and one bitmap page; it chooses ⌊tuples / ffactor⌋ buckets
 * (at least 2), rounded up to a whole split-point phase (_hash_spareindex,
 * _hash_get_totalbuckets in {@code hashutil.c}), where ffactor is the tuples that fill a
 * page to the fillfactor: BLCKSZ·fillfactor/100 / {@link HashPage#ITEM_WIDTH}, at least 10.
 *
 * <p>The model takes the tuples a build expects as the live items the index holds. A build
 * expects the heap's pg_class estimate scaled to its current length: the same after VACUUM
 * FULL (which rebuilds the indexes from the rewritten heap) and after a fresh ANALYZE, but
 * not when statistics are stale, nor for a heap of NULL keys a hash index leaves out. It
 * assumes the hash codes spread over the buckets, so that no bucket of a fresh build
 * overflows (a bucket holds about a third more than ffactor): many equal keys, which share a
 * bucket, overflow it and make a build larger than modelled.
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

  /** The blocks of a fresh build for {@code tuples}: the metapage, the buckets, one bitmap page. */
  static long freshBlocks(double tuples, int fillfactor) {
    return 1 + buckets(tuples, fillfactor) + 1;
  }

  /**
   * reclaimable_bytes of a hash index of {@code blocks} blocks holding {@code liveItems}; the
   * interval is the model at the ends of the items' interval, the SE theirs in bucket pages.
   */
  public static Estimate reclaimableBytes(long blocks, Estimate liveItems, int fillfactor) {
    if (!liveItems.isKnown()) {
      return Estimate.unknown();
    }
    double size = (double) blocks * PageHeader.BLCKSZ;
    double value = size - PageHeader.BLCKSZ * freshBlocks(liveItems.value(), fillfactor);
    if (liveItems.isExact()) {
      return Estimate.exact(value);
    }
    double low = size - PageHeader.BLCKSZ * freshBlocks(liveItems.high(), fillfactor);
    double high = size - PageHeader.BLCKSZ * freshBlocks(liveItems.low(), fillfactor);
    double se = liveItems.standardError() * PageHeader.BLCKSZ / ffactor(fillfactor);
    return new Estimate(value, se, Math.min(low, value), Math.max(high, value));
  }
}
