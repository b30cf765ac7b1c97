package io.pgbloat.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The planner's estimates of a table's tuples, as EXPLAIN showed them on PostgreSQL 13 to 18. */
class TableStatisticsTest {
  /** (id int, v text): 4 + 32 bytes of data, 28 of overhead, 127 rows a page of 8168 bytes. */
  private static final int INT_AND_TEXT = 36;

  private static TableStatistics unvacuumed(TupleEstimateRule rule, int fillfactor) {
    return new TableStatistics(rule, 0, rule == TupleEstimateRule.PG13 ? 0 : -1, false, fillfactor, INT_AND_TEXT);
  }

  @Test
  void theDensityOfTheLastVacuumScaledToTheTablesLength() {
    TableStatistics analysed = new TableStatistics(TupleEstimateRule.PG14, 125, 15000, false, 100, 0);
    assertEquals(15000, analysed.estimatedTuples(125));
    assertEquals(30000, analysed.estimatedTuples(250));
    assertEquals(120, analysed.estimatedTuples(1)); // analysed: no minimum
    assertEquals(0, analysed.estimatedTuples(0));
  }

  @Test
  void aTableNeverVacuumedIsGuessedFromItsRowWidth() {
    for (TupleEstimateRule rule : TupleEstimateRule.values()) {
      assertEquals(127 * 417, unvacuumed(rule, 100).estimatedTuples(417), rule.name());
      assertEquals(1270, unvacuumed(rule, 100).estimatedTuples(3), rule.name()); // taken as 10 pages
    }
  }

  @Test
  void fromSeventeenOnTheGuessFillsPagesToTheFillfactor() {
    assertEquals(127 * 848, unvacuumed(TupleEstimateRule.PG14, 50).estimatedTuples(848));
    assertEquals(63 * 848, unvacuumed(TupleEstimateRule.PG17, 50).estimatedTuples(848)); // 4084 / 64
    // rows wider than a page at the fillfactor: still one a page
    TableStatistics wide = new TableStatistics(TupleEstimateRule.PG17, 0, -1, false, 10, 5160);
    assertEquals(200, wide.estimatedTuples(200));
  }

  @Test
  void neverVacuumedIsRelpagesZeroOnThirteenAndReltuplesMinusOneFromFourteen() {
    // VACUUM of an empty table: relpages 0, reltuples 0; then three pages of rows
    TableStatistics vacuumedEmpty13 = new TableStatistics(TupleEstimateRule.PG13, 0, 0, false, 100, INT_AND_TEXT);
    TableStatistics vacuumedEmpty14 = new TableStatistics(TupleEstimateRule.PG14, 0, 0, false, 100, INT_AND_TEXT);
    assertEquals(1270, vacuumedEmpty13.estimatedTuples(3));
    assertEquals(381, vacuumedEmpty14.estimatedTuples(3));
  }

  @Test
  void aParentOfInheritanceChildrenGetsNoMinimum() {
    TableStatistics parent = new TableStatistics(TupleEstimateRule.PG14, 0, -1, true, 100, INT_AND_TEXT);
    assertEquals(381, parent.estimatedTuples(3));
    assertEquals(0, parent.estimatedTuples(0));
  }
}
