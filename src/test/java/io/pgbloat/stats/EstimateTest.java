package io.pgbloat.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What an estimate claims: exact only with no spread and no width, and sums that keep every range. */
class EstimateTest {
  @Test
  void aRangeWithoutAStandardErrorIsNoExactFigure() {
    assertTrue(Estimate.exact(5).isExact());
    // a model's range over pages read in full: nothing sampled, and still not known exactly
    assertFalse(new Estimate(40960, 0, 8192, 90112).isExact());
  }

  @Test
  void aSumKeepsTheRangesOfTermsWithoutAStandardError() {
    Estimate model = new Estimate(100, 0, 40, 130);
    Estimate sum = Estimate.sum(List.of(Estimate.exact(10), model));
    assertEquals(110, sum.value());
    assertEquals(50, sum.low(), 1e-9); // each reach its own: 60 down, 30 up
    assertEquals(140, sum.high(), 1e-9);
    // a model's range that reaches one way only adds nothing the other way
    Estimate oneWay = Estimate.sum(List.of(Estimate.exact(10), new Estimate(-100, 0, -100, -60)));
    assertEquals(-90, oneWay.low(), 1e-9);
    assertEquals(-50, oneWay.high(), 1e-9);
    assertFalse(sum.isExact());
    // two ranges add as independent errors do
    Estimate two = Estimate.sum(List.of(new Estimate(0, 0, -3, 3), new Estimate(0, 0, -4, 4)));
    assertEquals(-5, two.low(), 1e-9);
    assertEquals(5, two.high(), 1e-9);
    // a sampled interval widened down by a model's range keeps that reach
    Estimate widened = Estimate.sum(List.of(Estimate.exact(0), new Estimate(100, 10, -200, 130)));
    assertEquals(-200, widened.low(), 1e-9);
    assertEquals(130, widened.high(), 1e-9);
    assertEquals(Estimate.exact(7), Estimate.sum(List.of(Estimate.exact(3), Estimate.exact(4))));
  }
}
