package io.pgbloat.rebuild;

import io.pgbloat.page.GinPendingKeys;
import io.pgbloat.stats.Estimate;

/**
 * What a REINDEX would build an index from, for the rebuild models ({@link BtreeRebuild},
 * {@link HashRebuild}, {@link GinRebuild}): its fillfactor, whether a btree build may
 * deduplicate, what the run counted of its table, and the tuples a hash build expects.
 *
 * @param fillfactor the index's fillfactor, which a build fills its pages to
 * @param deduplicateItems whether a btree build may deduplicate (not unique, deduplicate_items
 *     on); it does when the metapage also says allequalimage
 * @param table what this run counted of the index's table, or null when it did not count it
 * @param expectedTuples the planner's estimate of the table's tuples, which a hash build chooses
 *     its buckets for; NaN when unknown (then {@link HashRebuild} takes the tuples it inserts)
 * @param pendingKeys the distinct keys of a GIN index's pending list, {@link GinPendingKeys#NONE}
 *     for another method or an empty list
 */
public record IndexBuild(int fillfactor, boolean deduplicateItems, TableCounts table, double expectedTuples,
    GinPendingKeys pendingKeys) {

  /**
   * The table's counts the rebuild models read, each over its heap pages
   * ({@code io.pgbloat.page.HeapPageStats}).
   *
   * @param liveTuples the live tuples: a build indexes those alone
   * @param indexedPointers the line pointers an index entry points to (HOT chains' roots, dead stubs)
   * @param deadRoots the dead tuples among them
   * @param deletedRoots those of the dead ones deleted rather than updated
   * @param blocks the table's length in blocks
   */
  public record TableCounts(Estimate liveTuples, Estimate indexedPointers, Estimate deadRoots, Estimate deletedRoots,
      long blocks) {}

  /** A build of an index whose table was not counted and whose expected tuples are unknown. */
  public IndexBuild(int fillfactor, boolean deduplicateItems) {
    this(fillfactor, deduplicateItems, null, Double.NaN, GinPendingKeys.NONE);
  }

  /** The live tuples of the index's table, or null when the run did not count it. */
  public Estimate heapTuples() {
    return table == null ? null : table.liveTuples();
  }

  /**
   * The share of the heap pointers in the index's entries a build keeps: the table's live
   * tuples over the line pointers an index entry points to, at most 1 (a build indexes the live
   * tuples alone; the rest are rows deleted or updated away whose entries VACUUM has yet to
   * take out); exactly 1 when the run did not count them. Its error is both counts' in
   * relative terms (they come from the same pages, so their ratio varies less: this errs wide).
   */
  public Estimate keptShare() {
    if (table == null || !table.liveTuples().isKnown() || !table.indexedPointers().isKnown()
        || !(table.indexedPointers().value() > 0)) {
      return Estimate.exact(1);
    }
    Estimate live = table.liveTuples();
    Estimate indexed = table.indexedPointers();
    double share = Math.min(1, live.value() / indexed.value());
    if (live.isExact() && indexed.isExact()) {
      return Estimate.exact(share);
    }
    double relative = Math.hypot(live.value() > 0 ? live.standardError() / live.value() : 0,
        indexed.standardError() / indexed.value());
    return new Estimate(share, share * relative, Math.max(0, live.low() / indexed.high()),
        indexed.low() > 0 ? Math.min(1, live.high() / indexed.low()) : 1);
  }

  /**
   * Of the heap pointers a build leaves out, the share that are rows deleted rather than
   * versions updated away (whose row lives on in a newer version, often under the same key): as
   * among the dead tuples still on the heap pages, the stubs pruning left of the others taken
   * alike; 1 when the run did not count them (every row left out taken as gone).
   */
  public double deletedShareOfDead() {
    if (table == null || !table.deadRoots().isKnown() || !(table.deadRoots().value() > 0)
        || !table.deletedRoots().isKnown()) {
      return 1;
    }
    return Math.min(1, Math.max(0, table.deletedRoots().value() / table.deadRoots().value()));
  }
}
