package io.pgbloat.catalog;

/**
 * What of the planner's estimate of a table's tuples from its pg_class row changed between 13
 * and 18 ({@code src/backend/access/table/tableam.c}, table_block_relation_estimate_size, which
 * {@code src/backend/optimizer/util/plancat.c} estimate_rel_size calls for a table):
 * {@link TableStatistics#estimatedTuples} applies it.
 */
public enum TupleEstimateRule {
  /** 13: a table not yet vacuumed or analysed is told by relpages 0 (reltuples is 0 then). */
  PG13(false, false),
  /** 14-16: reltuples is -1 until the first VACUUM or ANALYZE, which is what tells such a table. */
  PG14(true, false),
  /**
   * 17-18: the guess from the row width also fills each page to the table's fillfactor, and
   * keeps at least one row a page (clamp_row_est).
   */
  PG17(true, true);

  private final boolean unknownTuplesNegative;
  private final boolean widthGuessAtFillfactor;

  TupleEstimateRule(boolean unknownTuplesNegative, boolean widthGuessAtFillfactor) {
    this.unknownTuplesNegative = unknownTuplesNegative;
    this.widthGuessAtFillfactor = widthGuessAtFillfactor;
  }

  /** Whether a table of these relpages and reltuples counts as never vacuumed or analysed. */
  boolean neverVacuumed(long pages, double tuples) {
    return unknownTuplesNegative ? tuples < 0 : pages == 0;
  }

  /** Whether the guess from the row width fills pages to the fillfactor, at least a row each. */
  boolean widthGuessAtFillfactor() {
    return widthGuessAtFillfactor;
  }
}
