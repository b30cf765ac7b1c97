package io.pgbloat.rebuild;

import io.pgbloat.stats.Estimate;

/**
 * What a REINDEX would build an index from, for the rebuild models ({@link BtreeRebuild},
 * {@link HashRebuild}): its fillfactor, whether a btree build may deduplicate, the live tuples
 * of its table, and the tuples a hash build expects.
 *
 * @param fillfactor the index's fillfactor, which a build fills its pages to
 * @param deduplicateItems whether a btree build may deduplicate (not unique, deduplicate_items
 *     on); it does when the metapage also says allequalimage
 * @param heapTuples the live tuples of the index's table, when this run counted them, else
 *     null: a build indexes those alone ({@link BtreeRebuild#keptBytes}, {@link HashRebuild#insertedTuples})
 * @param expectedTuples the planner's estimate of the table's tuples, which a hash build chooses
 *     its buckets for; NaN when unknown (then {@link HashRebuild} takes the tuples it inserts)
 */
public record IndexBuild(int fillfactor, boolean deduplicateItems, Estimate heapTuples, double expectedTuples) {

  /** A build whose expected tuples are unknown. */
  public IndexBuild(int fillfactor, boolean deduplicateItems, Estimate heapTuples) {
    this(fillfactor, deduplicateItems, heapTuples, Double.NaN);
  }
}
