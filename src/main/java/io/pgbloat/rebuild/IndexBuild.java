package io.pgbloat.rebuild;

import io.pgbloat.stats.Estimate;

/**
 * What a REINDEX would build an index from, for the rebuild models ({@link BtreeRebuild},
 * {@link HashRebuild}, {@link GinRebuild}): its fillfactor, whether a btree build may
 * deduplicate, the live tuples of its table and the line pointers its entries can point to,
 * and the tuples a hash build expects.
 *
 * @param fillfactor the index's fillfactor, which a build fills its pages to
 * @param deduplicateItems whether a btree build may deduplicate (not unique, deduplicate_items
 *     on); it does when the metapage also says allequalimage
 * @param heapTuples the live tuples of the index's table, when this run counted them, else
 *     null: a build indexes those alone ({@link BtreeRebuild#keptBytes}, {@link HashRebuild#insertedTuples})
 * @param indexedPointers the line pointers of the index's table an index entry points to
 *     ({@code HeapPageStats#indexedPointers}), when this run counted them, else null
 * @param expectedTuples the planner's estimate of the table's tuples, which a hash build chooses
 *     its buckets for; NaN when unknown (then {@link HashRebuild} takes the tuples it inserts)
 */
public record IndexBuild(int fillfactor, boolean deduplicateItems, Estimate heapTuples, Estimate indexedPointers,
    double expectedTuples) {

  /** A build whose table's line pointers and expected tuples are unknown. */
  public IndexBuild(int fillfactor, boolean deduplicateItems, Estimate heapTuples) {
    this(fillfactor, deduplicateItems, heapTuples, null, Double.NaN);
  }

  /**
   * The share of the heap pointers in the index's entries a build keeps: the table's live
   * tuples over the line pointers an index entry points to, at most 1 (a build indexes the live
   * tuples alone; the rest are rows deleted or updated away whose entries VACUUM has yet to
   * take out); exactly 1 when the run did not count them. Its error is both counts' in
   * relative terms (they come from the same pages, so their ratio varies less: this errs wide).
   */
  public Estimate keptShare() {
    if (heapTuples == null || indexedPointers == null || !heapTuples.isKnown() || !indexedPointers.isKnown()
        || !(indexedPointers.value() > 0)) {
      return Estimate.exact(1);
    }
    double share = Math.min(1, heapTuples.value() / indexedPointers.value());
    if (heapTuples.isExact() && indexedPointers.isExact()) {
      return Estimate.exact(share);
    }
    double relative = Math.hypot(heapTuples.value() > 0 ? heapTuples.standardError() / heapTuples.value() : 0,
        indexedPointers.standardError() / indexedPointers.value());
    return new Estimate(share, share * relative, Math.max(0, heapTuples.low() / indexedPointers.high()),
        indexedPointers.low() > 0 ? Math.min(1, heapTuples.high() / indexedPointers.low()) : 1);
  }
}
