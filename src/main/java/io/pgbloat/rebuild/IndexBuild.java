package io.pgbloat.rebuild;

import io.pgbloat.stats.Estimate;

/**
 * What a REINDEX would build an index from, for the rebuild models ({@link BtreeRebuild},
 * {@link HashRebuild}): its fillfactor, whether a btree build may deduplicate, and the live
 * tuples of its table.
 *
 * @param fillfactor the index's fillfactor, which a build fills its pages to
 * @param deduplicateItems whether a btree build may deduplicate (not unique, deduplicate_items
 *     on); it does when the metapage also says allequalimage
 * @param heapTuples the live tuples of the index's table, when this run counted them, else
 *     null: a build indexes those alone ({@link BtreeRebuild#keptBytes})
 */
public record IndexBuild(int fillfactor, boolean deduplicateItems, Estimate heapTuples) {}
