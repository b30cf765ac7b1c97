package io.pgbloat.rebuild;

import io.pgbloat.page.BtreeLeafFill;
import io.pgbloat.page.BtreePage;
import io.pgbloat.page.PageHeader;
import io.pgbloat.stats.Estimate;

/**
 * What a {@code REINDEX} of a btree index would give back: its size less the size of a fresh
 * build of the entries its leaves hold. The build ({@code src/backend/access/nbtree/nbtsort.c},
 * _bt_buildadd, the same 13-18) writes the sorted entries left to right and closes a page once
 * its free space is below {@code BLCKSZ·(100 − fillfactor)/100} (BTGetTargetPageFreeSpace,
 * {@code nbtree.h}), leaves at the index's fillfactor and internal pages at
 * BTREE_NONLEAF_FILLFACTOR; a metapage comes first, and an index of no entries is the metapage
 * alone.
 *
 * <p>The model: the entries the leaves hold ({@link io.pgbloat.page.BtreeLeafEntries}: each
 * heap TID a tuple, or equal keys merged into posting lists as a deduplicating build merges
 * them) refill leaves as _bt_buildadd fills them ({@link io.pgbloat.page.BtreeLeafFill}: the
 * items that fit within the room the target free space leaves, the high key beyond it), each
 * leaf's entries counted at the room of build leaves they take; the internal levels shrink with
 * the leaves. Entries marked dead (LP_DEAD) are left out, as a build leaves them; entries of
 * rows deleted or updated away since the last VACUUM, which no offline reading of the index
 * alone can tell, are taken out as the table's counts say when the run has counted it: in
 * proportion where every TID is a tuple ({@link #keptBytes}), by runs of equal keys where a
 * build deduplicates ({@link #keptDeduplicatedBytes}); otherwise they are kept, so before that
 * VACUUM it errs towards less to give back. Equal keys are merged within each leaf, so a key
 * whose entries span two leaves counts as two runs: a few bytes a leaf towards less to give
 * back.
 */
public final class BtreeRebuild {
  private BtreeRebuild() {}

  /**
   * The bytes a build writes for the leaves' entries, {@code buildBytes}, scaled down to the
   * table's live tuples when the leaves hold more heap TIDs ({@code leafTids}) than the table
   * has live tuples ({@code heapTuples}, null when the run did not count the table): a build
   * indexes the live tuples alone. The share is at most 1 (a partial index holds fewer entries
   * than the table has rows, so for one it errs towards keeping entries). Its error is the
   * table count's, added to the bytes' in relative terms (the TIDs come from the same pages as
   * the bytes, so their ratio varies less than the bytes alone: this errs wide).
   */
  public static Estimate keptBytes(Estimate buildBytes, Estimate heapTuples, double leafTids) {
    if (heapTuples == null || !heapTuples.isKnown() || !(leafTids > 0) || !buildBytes.isKnown()) {
      return buildBytes;
    }
    double share = heapTuples.value() / leafTids;
    if (share >= 1) {
      return buildBytes;
    }
    if (buildBytes.isExact() && heapTuples.isExact()) {
      return Estimate.exact(buildBytes.value() * share);
    }
    double value = buildBytes.value() * share;
    double relative = Math.hypot(buildBytes.value() > 0 ? buildBytes.standardError() / buildBytes.value() : 0,
        heapTuples.value() > 0 ? heapTuples.standardError() / heapTuples.value() : 0);
    return new Estimate(value, value * relative, buildBytes.low() * Math.max(0, heapTuples.low()) / leafTids,
        buildBytes.high() * Math.min(1, heapTuples.high() / leafTids));
  }

  /**
   * The runs of equal keys on an index's leaves, by the heap TIDs they hold (one, a few, more):
   * how many, the bytes of one plain tuple a run, and their TIDs; and the leaves' high keys.
   */
  public record LeafRuns(double singleRuns, double singleBytes, double fewRuns, double fewBytes, double fewTids,
      double manyRuns, double manyBytes, double manyTids, double highKeyBytes) {
    double runs() {
      return singleRuns + fewRuns + manyRuns;
    }

    double tids() {
      return singleRuns + fewTids + manyTids;
    }

    double keyBytes() {
      return singleBytes + fewBytes + manyBytes;
    }
  }

  /**
   * The bytes a deduplicating build writes for the leaves' entries once the heap TIDs it leaves
   * out are gone: {@code deduplicatedBytes}, which merge the leaves' runs of equal keys, are a
   * plain tuple a run ({@code runs}), the TIDs past each run's first and the high keys. A build
   * keeps {@code share} of the TIDs, and a run goes only with the last TID it holds. A version
   * updated away leaves its row in the newer one, in the same run unless the update changed the
   * key; a deleted row takes its TIDs with it: of the TIDs left out, {@code deletedShareOfDead}
   * are deleted rows. So a run of m rows is gone with δ^m, δ the share of rows deleted and m its
   * TIDs over the TIDs a row has (one for a run of one TID); as every run that stays keeps a
   * TID, no more runs stay than TIDs (where the updates did change the keys, the versions sit
   * in runs of their own). The TIDs kept past one a run, and the high keys, follow in
   * proportion. The pages cannot tell an update that kept the key from one that changed it: the
   * interval reaches from runs thinned as their TIDs are to every run kept, around the
   * bytes' own.
   */
  public static Estimate keptDeduplicatedBytes(Estimate deduplicatedBytes, LeafRuns runs, Estimate share,
      double deletedShareOfDead) {
    if (!deduplicatedBytes.isKnown() || !(deduplicatedBytes.value() > 0) || share.low() >= 1
        || !(runs.runs() > 0)) {
      return deduplicatedBytes;
    }
    double bytes = deduplicatedBytes.value();
    double value = keptRunsBytes(bytes, runs, Math.min(1, share.value()), deletedShareOfDead);
    double fewest = share.low() * deduplicatedBytes.low();
    double most = keptRunsBytes(bytes, runs, Math.min(1, share.high()), 0) * deduplicatedBytes.high() / bytes;
    double relative = Math.hypot(deduplicatedBytes.standardError() / bytes,
        share.value() > 0 ? share.standardError() / share.value() : 0);
    return new Estimate(value, value * relative, Math.min(fewest, value), Math.max(most, value));
  }

  /** The bytes of the runs a build keeps, as {@link #keptDeduplicatedBytes} tells them. */
  private static double keptRunsBytes(double bytes, LeafRuns runs, double share, double deletedShareOfDead) {
    double rowsPerTid = share + (1 - share) * deletedShareOfDead;
    double rowGone = rowsPerTid > 0 ? (1 - share) * deletedShareOfDead / rowsPerTid : 1;
    double single = staying(runs.singleRuns(), runs.singleRuns(), rowGone, rowsPerTid);
    double few = staying(runs.fewRuns(), runs.fewTids(), rowGone, rowsPerTid);
    double many = staying(runs.manyRuns(), runs.manyTids(), rowGone, rowsPerTid);
    double keptRuns = runs.singleRuns() * single + runs.fewRuns() * few + runs.manyRuns() * many;
    double keptTids = share * runs.tids();
    double fit = keptRuns > keptTids ? keptTids / keptRuns : 1;
    double keptKeyBytes = fit * (runs.singleBytes() * single + runs.fewBytes() * few + runs.manyBytes() * many);
    // a run of several TIDs is one posting list, its every TID in it (a run of one keeps its TID
    // in the tuple's header): the bytes a TID takes there, padding in, as now
    double multiTidsNow = runs.fewTids() + runs.manyTids();
    double bytesPerPostedTid = multiTidsNow > 0
        ? Math.max(0, bytes - runs.keyBytes() - runs.highKeyBytes()) / multiTidsNow : 0;
    double keptMultiRuns = fit * (runs.fewRuns() * few + runs.manyRuns() * many);
    double multiTids = Math.max(0, keptTids - fit * runs.singleRuns() * single);
    // runs left with one TID are plain tuples again: below two a run on average, some are
    double posted = keptMultiRuns > 0 && multiTids >= 2 * keptMultiRuns ? multiTids
        : 2 * Math.max(0, multiTids - keptMultiRuns);
    return keptKeyBytes + bytesPerPostedTid * posted
        + (runs.keyBytes() > 0 ? runs.highKeyBytes() * keptKeyBytes / runs.keyBytes() : 0);
  }

  /**
   * The share of {@code count} runs of {@code tids} TIDs in all that stay: each gone with δ^m,
   * δ = {@code rowGone}, m its rows (its TIDs times {@code rowsPerTid}, at least one).
   */
  private static double staying(double count, double tids, double rowGone, double rowsPerTid) {
    return count > 0 ? 1 - Math.pow(rowGone, Math.max(1, tids / count * rowsPerTid)) : 0;
  }

  /**
   * The room of build leaves the entries a build keeps take: {@code keptBytes} at the room a
   * byte of the leaves' entries takes, {@code room} over {@code buildBytes} (both from the same
   * leaves, so their ratio varies far less than either: the error is {@code keptBytes}').
   */
  public static Estimate keptRoom(Estimate room, Estimate keptBytes, Estimate buildBytes) {
    if (!room.isKnown() || !keptBytes.isKnown() || !buildBytes.isKnown() || !(buildBytes.value() > 0)) {
      return room;
    }
    double perByte = room.value() / buildBytes.value();
    if (room.isExact() && buildBytes.isExact() && keptBytes.isExact()) {
      return Estimate.exact(keptBytes.value() * perByte);
    }
    return new Estimate(keptBytes.value() * perByte, keptBytes.standardError() * perByte, keptBytes.low() * perByte,
        keptBytes.high() * perByte);
  }

  /** BTREE_NONLEAF_FILLFACTOR ({@code nbtree.h}): a build fills internal pages to it. */
  static final int NONLEAF_FILLFACTOR = 70;

  /**
   * The downlinks a build's internal page keeps, each of {@code pivotRoom} bytes (a pivot tuple, a
   * copy of a leaf's high key, with its line pointer): as a leaf keeps items
   * ({@link io.pgbloat.page.BtreeLeafFill}), within the room BTREE_NONLEAF_FILLFACTOR leaves; two
   * at least.
   */
  static double downlinksPerPage(double pivotRoom) {
    double room = BtreeLeafFill.NEW_PAGE_FREE - PageHeader.BLCKSZ * (100 - NONLEAF_FILLFACTOR) / 100;
    return Math.max(2, Math.floor(room / pivotRoom));
  }

  /**
   * The blocks of a fresh build, metapage included, from the room of build leaves the entries
   * take: ⌈room / max_avail⌉ leaves (none when nothing is used), and above more than one leaf
   * the levels of their downlinks ({@link #downlinksPerPage}) up to a root, a downlink the size
   * of the leaves' high keys now ({@code pivotRoom}); where no leaf has one (a single leaf), the
   * internal pages in the proportion they have to the leaves now ({@code leafPages},
   * {@code internalPages}), at least a root.
   */
  static double freshBlocks(double leafRoom, double leafPages, double internalPages, double pivotRoom) {
    double leaves = leafRoom <= 0 ? 0 : Math.max(1, Math.ceil(leafRoom / BtreePage.MAX_AVAIL));
    if (!(leaves > 1) || !Double.isFinite(leaves)) {
      return 1 + leaves; // no more than a root leaf, or an interval's unbounded end
    }
    double internal = 0;
    if (pivotRoom > 0) {
      for (double level = leaves; level > 1; ) {
        level = Math.ceil(level / downlinksPerPage(pivotRoom));
        internal += level;
      }
    } else {
      internal = leafPages <= 0 ? 1 : Math.max(1, Math.ceil(leaves * internalPages / leafPages));
    }
    return 1 + leaves + internal;
  }

  /**
   * reclaimable_bytes: the index's size less that of a fresh build, negative when a build would
   * be larger (its leaves are fuller now than the fillfactor leaves them). The interval is the
   * model at the ends of {@code leafRoom}'s interval (less room, more to give back); the SE is
   * its SE in whole leaves.
   *
   * @param blocks the index's length in blocks
   * @param leafRoom the room of build leaves the entries a build keeps take ({@link #keptRoom}),
   *     exact or estimated
   * @param leafPages leaf_pages (its point value)
   * @param internalPages internal_pages (its point value)
   * @param pivotRoom the mean bytes of the leaves' high keys with their line pointers, 0 when none has one
   */
  public static Estimate reclaimableBytes(long blocks, Estimate leafRoom, double leafPages, double internalPages,
      double pivotRoom) {
    if (!leafRoom.isKnown()) {
      return Estimate.unknown();
    }
    double size = (double) blocks * PageHeader.BLCKSZ;
    double value = size - PageHeader.BLCKSZ * freshBlocks(leafRoom.value(), leafPages, internalPages, pivotRoom);
    if (leafRoom.isExact()) {
      return Estimate.exact(value);
    }
    double low = size - PageHeader.BLCKSZ * freshBlocks(leafRoom.high(), leafPages, internalPages, pivotRoom);
    double high = size - PageHeader.BLCKSZ * freshBlocks(leafRoom.low(), leafPages, internalPages, pivotRoom);
    double se = leafRoom.standardError() * PageHeader.BLCKSZ / BtreePage.MAX_AVAIL;
    return new Estimate(value, se, Math.min(low, value), Math.max(high, value));
  }
}
