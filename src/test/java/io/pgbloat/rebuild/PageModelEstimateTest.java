package io.pgbloat.rebuild;

import static io.pgbloat.page.PageHeader.BLCKSZ;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.stats.Estimate;
import org.junit.jupiter.api.Test;

class PageModelEstimateTest {
  /** Whole pages of 1000-byte items: ⌈items / 8⌉ pages. */
  private static double pages(double items) {
    return BLCKSZ * Math.ceil(items / 8);
  }

  @Test
  void exactTotalsGiveAnExactFigure() {
    Estimate e = PageModelEstimate.of(x -> pages(x[0]) + pages(x[1]), Estimate.exact(80), Estimate.exact(8));
    assertTrue(e.isExact());
    assertEquals(11.0 * BLCKSZ, e.value());
  }

  @Test
  void aTotalWithNoEstimateMakesTheFigureUnknown() {
    assertFalse(PageModelEstimate.of(x -> pages(x[0]), Estimate.unknown()).isKnown());
  }

  @Test
  void aSampledTotalWithinOneStepStillLeavesAPageEitherSide() {
    // 81..87 items all take 11 pages: the model does not move, the interval still does
    Estimate e = PageModelEstimate.of(x -> pages(x[0]), new Estimate(84, 1.5, 81, 87));
    assertEquals(11.0 * BLCKSZ, e.value());
    assertEquals(10.0 * BLCKSZ, e.low());
    assertEquals(12.0 * BLCKSZ, e.high());
    assertEquals(BLCKSZ / 2.0, e.standardError()); // the half-width over the total's quantile, 2
  }

  @Test
  void everySampledTotalMovesTheInterval() {
    // the first total exact, the second and third sampled: each moves the model 2 pages down (60 items, 8 pages) and 3 up (100, 13)
    Estimate e = PageModelEstimate.of(x -> pages(x[0]) + pages(x[1]) + pages(x[2]),
        Estimate.exact(80), new Estimate(80, 10, 60, 100), new Estimate(80, 10, 60, 100));
    assertEquals(30.0 * BLCKSZ, e.value());
    assertEquals(30.0 * BLCKSZ - Math.sqrt(2 * 4.0) * BLCKSZ, e.low(), 1e-6);
    assertEquals(30.0 * BLCKSZ + Math.sqrt(2 * 9.0) * BLCKSZ, e.high(), 1e-6);
  }
}
