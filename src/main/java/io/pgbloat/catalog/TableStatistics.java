package io.pgbloat.catalog;

import io.pgbloat.page.HeapTupleHeader;
import io.pgbloat.page.ItemId;
import io.pgbloat.page.PageHeader;
import java.io.Serializable;

/**
 * What the planner knows of a heap table's size, and its estimate of the table's tuples from
 * it ({@code src/backend/optimizer/util/plancat.c}, estimate_rel_size, and
 * {@code src/backend/access/table/tableam.c}, table_block_relation_estimate_size, called by
 * heapam_estimate_rel_size of {@code heapam_handler.c} with its overheads).
 *
 * @param rule what of the estimate the cluster's version does
 * @param pages relpages
 * @param tuples reltuples
 * @param hasSubclass relhassubclass: a table with inheritance children gets no 10-page minimum
 * @param fillfactor the fillfactor its pages are filled to
 * @param dataWidth the planner's guess at a row's data width ({@link DataWidth}), read only
 *     when the estimate needs it ({@link #needsWidth}), else 0
 */
public record TableStatistics(TupleEstimateRule rule, long pages, double tuples, boolean hasSubclass, int fillfactor,
    int dataWidth) implements Serializable {
  /** HEAP_OVERHEAD_BYTES_PER_TUPLE: MAXALIGN(SizeofHeapTupleHeader) + sizeof(ItemIdData). */
  static final int HEAP_OVERHEAD_BYTES_PER_TUPLE = PageHeader.maxAlign(HeapTupleHeader.SIZEOF_HEAP_TUPLE_HEADER)
      + ItemId.SIZE_OF_ITEM_ID_DATA;
  /** HEAP_USABLE_BYTES_PER_PAGE: BLCKSZ - SizeOfPageHeaderData. */
  static final int HEAP_USABLE_BYTES_PER_PAGE = PageHeader.BLCKSZ - PageHeader.SIZE_OF_PAGE_HEADER_DATA;
  /** The length the planner assumes at least of a table never vacuumed or analysed. */
  static final int NEVER_VACUUMED_MIN_PAGES = 10;

  /** Whether relpages and reltuples give no density, so that the estimate guesses one from the row width. */
  static boolean needsWidth(long pages, double tuples) {
    return !(tuples >= 0 && pages > 0);
  }

  /**
   * The planner's estimate of the table's tuples when it is {@code blocks} blocks long: its
   * density, reltuples / relpages or else the tuples of the guessed width that fill a page,
   * times its length, taken as at least 10 pages if it was never vacuumed or analysed and has
   * no inheritance children.
   */
  public double estimatedTuples(long blocks) {
    long current = blocks;
    if (current < NEVER_VACUUMED_MIN_PAGES && rule.neverVacuumed(pages, tuples) && !hasSubclass) {
      current = NEVER_VACUUMED_MIN_PAGES;
    }
    if (current == 0) {
      return 0;
    }
    double density;
    if (!needsWidth(pages, tuples)) {
      density = tuples / pages;
    } else {
      int usable = rule.widthGuessAtFillfactor() ? HEAP_USABLE_BYTES_PER_PAGE * fillfactor / 100
          : HEAP_USABLE_BYTES_PER_PAGE;
      long perPage = usable / (dataWidth + HEAP_OVERHEAD_BYTES_PER_TUPLE); // integer division, as there
      density = rule.widthGuessAtFillfactor() ? Math.max(1, perPage) : perPage;
    }
    return Math.rint(density * current);
  }
}
