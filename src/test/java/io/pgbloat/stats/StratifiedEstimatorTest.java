package io.pgbloat.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.commons.math3.distribution.TDistribution;
import org.junit.jupiter.api.Test;

/**
 * The one estimator of a stratified total on strata small enough to work out by hand: the
 * total, its SE and interval, the Satterthwaite degrees of freedom, the guards, the rule for
 * fewer than two pages, and the ratio of two totals.
 */
class StratifiedEstimatorTest {
  private static final double EPS = 1e-9;
  private static final double UNBOUNDED = Double.POSITIVE_INFINITY;
  private final StratifiedEstimator estimator = new StratifiedEstimator(0.95);

  /** A sampled stratum of {@code population} pages whose good pages read hold {@code values}. */
  private static StratumSample sampled(long population, long... values) {
    long sum = 0;
    long squares = 0;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (long y : values) {
      sum += y;
      squares += y * y;
      min = Math.min(min, y);
      max = Math.max(max, y);
    }
    return new StratumSample(population, values.length, values.length, sum, squares, min, max, false);
  }

  private static double t(double df) {
    return new TDistribution(null, df).inverseCumulativeProbability(0.975);
  }

  @Test
  void oneSampledStratumByHand() {
    // N = 10, y = 10, 12, 14: ȳ = 12, Σ(y − ȳ)² = 8; with the pseudo-pages at 10 and 14,
    // s² = (8 + 4 + 4) / 4 = 4; Var = 10² (1 − 3/10) 4 / 3 = 280/3; df = 2
    Estimate e = estimator.total(List.of(sampled(10, 10, 12, 14)), 1, UNBOUNDED);
    double se = Math.sqrt(280.0 / 3);
    assertEquals(120, e.value(), EPS);
    assertEquals(se, e.standardError(), EPS);
    assertEquals(120 - t(2) * se, e.low(), EPS);
    assertEquals(120 + t(2) * se, e.high(), EPS);
  }

  @Test
  void strataAndAPartReadWholeByHand() {
    // read whole: 5, exactly. A: N = 10, y = 10, 12, 14: 120, Var 280/3, n - 1 = 2.
    // B: N = 20, y = 0, 4: ȳ = 2, Σ(y − ȳ)² = 8, s² = (8 + 4 + 4) / 3 = 16/3,
    // Var = 20² (1 − 2/20) (16/3) / 2 = 960, n - 1 = 1.
    Estimate e = estimator.total(List.of(StratumSample.exact(5), sampled(10, 10, 12, 14), sampled(20, 0, 4)), 1,
        UNBOUNDED);
    double a = 280.0 / 3;
    double b = 960;
    double df = (a + b) * (a + b) / (a * a / 2 + b * b / 1); // Satterthwaite
    double se = Math.sqrt(a + b);
    assertEquals(165, e.value(), EPS);
    assertEquals(se, e.standardError(), EPS);
    assertEquals(165 + t(df) * se, e.high(), 1e-6);
    // never below what the pages read hold: 5 + 36 + 4
    assertEquals(Math.max(45, 165 - t(df) * se), e.low(), 1e-6);
  }

  @Test
  void aStratumOfOnePageSaysNothingOfItsSpread() {
    // a count of pages: at most one a page, so the total is at most 3 + 1 + 19, at least 3 + 1
    Estimate one = estimator.total(List.of(StratumSample.exact(3), sampled(20, 1)), 1, 1);
    assertEquals(23, one.value(), EPS);
    assertTrue(Double.isNaN(one.standardError()));
    assertEquals(4, one.low());
    assertEquals(23, one.high(), EPS);
    // the same with a well-sampled stratum beside it: still nothing known of the total's spread
    Estimate beside = estimator.total(List.of(sampled(10, 10, 12, 14), sampled(20, 7)), 1, UNBOUNDED);
    assertEquals(120 + 140, beside.value(), EPS);
    assertTrue(Double.isNaN(beside.standardError()));
    assertEquals(UNBOUNDED, beside.high());
    // no good page: no value at all
    StratumSample none = new StratumSample(20, 2, 0, 0, 0, Long.MAX_VALUE, Long.MIN_VALUE, false);
    assertEquals(Estimate.unknown(), estimator.total(List.of(none), 1, UNBOUNDED));
    Estimate bounded = estimator.total(List.of(none), 1, 1);
    assertTrue(Double.isNaN(bounded.value()));
    assertEquals(20, bounded.high(), EPS);
  }

  @Test
  void aConstantStratumStillHasTheVarianceOfOneUnseenPage() {
    // N = 100, four pages of 5: s² = 0, so one unit over n + 2: 1/6; Var = 100² (1 − 4/100) (1/6) / 4 = 400
    Estimate e = estimator.total(List.of(sampled(100, 5, 5, 5, 5)), 1, UNBOUNDED);
    assertEquals(500, e.value(), EPS);
    assertEquals(20, e.standardError(), EPS);
    assertEquals(500 + t(3) * 20, e.high(), EPS);
    // a unit of 8 bytes: 8² / 6
    assertEquals(20 * 8, estimator.total(List.of(sampled(100, 5, 5, 5, 5)), 8, UNBOUNDED).standardError(), EPS);
  }

  @Test
  void thePseudoPagesWidenASampleThatSawOneRarePage() {
    // one page of ten holds 1: s² = 0.9 / 9 = 0.1; with pseudo-pages at 0 and 1, (0.9 + 0.01 + 0.81) / 11
    StratumSample s = sampled(1000, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    assertEquals(0.1, s.sampleVariance(), EPS);
    assertEquals(1.72 / 11, StratifiedEstimator.guardedVariance(s, 1), EPS);
  }

  @Test
  void aStratumReadWholeIsExactAndAKnownZeroHasNoVariance() {
    // read whole, a bad page among them: its sum, exactly
    StratumSample whole = new StratumSample(4, 4, 3, 9, 29, 2, 4, false);
    assertEquals(Estimate.exact(9), estimator.total(List.of(whole), 1, UNBOUNDED));
    // all-visible pages hold no dead tuple: a sample finding none is exact
    StratumSample zeros = new StratumSample(50, 2, 2, 0, 0, 0, 0, true);
    assertEquals(Estimate.exact(0), estimator.total(List.of(zeros), 1, UNBOUNDED));
    StratumSample notKnown = new StratumSample(50, 2, 2, 0, 0, 0, 0, false);
    assertTrue(estimator.total(List.of(notKnown), 1, UNBOUNDED).standardError() > 0);
  }

  @Test
  void aCountOfPagesIsAtMostThePages() {
    // N = 5, two of three pages of the kind: 10/3, an interval far wider without the clip: at
    // least the 1 + 2 read, at most those and the 2 pages not read
    Estimate e = estimator.total(List.of(StratumSample.exact(1), sampled(5, 1, 1, 0)), 1, 1);
    assertEquals(1 + 10.0 / 3, e.value(), EPS);
    assertEquals(5, e.high(), EPS);
    assertEquals(3, e.low());
  }

  @Test
  void aKindTheSampleNeverSawStartsItsIntervalAtThePartReadWhole() {
    // 3 pages of the kind read whole, none among 40 of 300 sampled: the total is 3 at least,
    // the guard reaching up only
    Estimate e = estimator.total(List.of(StratumSample.exact(3), sampled(300, new long[40])), 1, 1);
    assertEquals(3, e.value(), EPS);
    assertEquals(3, e.low(), EPS);
    assertTrue(e.high() > 3);
  }

  @Test
  void aRatioByHand() {
    // N = 10, y = 100, 200, 0 on pages where x = 1, 1, 0: R = 300 / 2 = 150, d = −50, 50, 0,
    // s_d² = 5000 / 2; SE = sqrt((1 − 3/10) s_d² / 3) / x̄, x̄ = 2/3
    Estimate r = estimator.ratio(sampled(10, 100, 200, 0), sampled(10, 1, 1, 0), 0, 0, 1, 1, UNBOUNDED);
    double se = Math.sqrt(0.7 * 2500 / 3) / (2.0 / 3);
    assertEquals(150, r.value(), EPS);
    assertEquals(se, r.standardError(), EPS);
    assertEquals(150 + t(2) * se, r.high(), EPS);
    assertEquals(Math.max(0, 150 - t(2) * se), r.low(), EPS);
    // each page of x counting twice (a scale of 2): the same residuals, half the ratio
    Estimate scaled = estimator.ratio(sampled(10, 100, 200, 0), sampled(10, 1, 1, 0), 0, 0, 2, 1, UNBOUNDED);
    assertEquals(75, scaled.value(), EPS);
    assertEquals(se / 2, scaled.standardError(), EPS);
    // with a part read whole: (50 + 10·300/3) / (1 + 10·2/3)
    Estimate mixed = estimator.ratio(sampled(10, 100, 200, 0), sampled(10, 1, 1, 0), 50, 1, 1, 1, UNBOUNDED);
    assertEquals(1050 / (1 + 20.0 / 3), mixed.value(), EPS);
  }

  @Test
  void aRatioFollowsTheSameRulesAsATotal() {
    // read whole: exact
    assertEquals(Estimate.exact(0.25), estimator.ratio(new StratumSample(4, 4, 4, 1, 1, 0, 1, false),
        new StratumSample(4, 4, 4, 4, 4, 1, 1, false), 0, 0, 1, 1, 1));
    // one page: nothing known of its spread, the interval the ratio's whole range
    Estimate one = estimator.ratio(sampled(10, 1), sampled(10, 1), 0, 0, 1, 1, 1);
    assertEquals(1, one.value(), EPS);
    assertTrue(Double.isNaN(one.standardError()));
    assertEquals(0, one.low());
    assertEquals(1, one.high());
    // no page of x sampled: no value
    Estimate none = estimator.ratio(sampled(10, 0, 0, 0), sampled(10, 0, 0, 0), 0, 0, 1, 1, 1);
    assertTrue(Double.isNaN(none.value()));
    assertEquals(1, none.high());
    // residuals all zero: guarded by one unit over n + 2
    Estimate agree = estimator.ratio(sampled(10, 0, 0, 0), sampled(10, 1, 1, 1), 0, 0, 1, 1, 1);
    assertEquals(0, agree.value(), EPS);
    assertEquals(Math.sqrt(0.7 * (1.0 / 5) / 3), agree.standardError(), EPS);
  }
}
