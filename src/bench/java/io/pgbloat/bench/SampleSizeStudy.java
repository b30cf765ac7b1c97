package io.pgbloat.bench;

import io.pgbloat.io.read.BlockList;
import io.pgbloat.sample.BlockSampler;
import io.pgbloat.sample.RelationSample;
import io.pgbloat.sample.SamplePlanner;
import io.pgbloat.stats.Measure;
import io.pgbloat.stats.PageValues;
import io.pgbloat.stats.StratifiedEstimator;
import io.pgbloat.stats.StratifiedSums;
import java.util.List;
import java.util.Locale;

/**
 * The measurements behind two choices, on the ground-truth tables' every page (see
 * {@link PageValues}): the default sample size (relative standard error of dead and free
 * bytes against n), and stratifying by the visibility map (the variance of the estimates
 * with and without it, over many seeds). Run by {@code bench/sample-size.sh}.
 */
public final class SampleSizeStudy {
  private static final int SEEDS = 200;

  private SampleSizeStudy() {}

  public static void main(String[] args) {
    List<PageValues> tables = PageValues.load("/pages/groundtruth-gt.csv.gz", "/pages/groundtruth-gt_many.csv.gz");
    StratifiedEstimator estimator = new StratifiedEstimator(0.95);
    long[] sizes = {100, 300, 1000, 3000};
    System.out.println("== relative standard error (mean SE / truth) of dead_tuple_len and free_space, "
        + SEEDS + " seeds");
    System.out.printf(Locale.ROOT, "%-28s %7s", "table", "blocks");
    for (long n : sizes) {
      System.out.printf(Locale.ROOT, " %16s", "n=" + n + " dead/free");
    }
    System.out.println();
    for (PageValues t : tables) {
      if (t.blocks() < 400) {
        continue;
      }
      System.out.printf(Locale.ROOT, "%-28s %7d", t.name(), t.blocks());
      for (long n : sizes) {
        double[] rse = rse(t, n, t.allVisible(), estimator);
        System.out.printf(Locale.ROOT, " %16s", n >= t.blocks() ? "exact"
            : String.format(Locale.ROOT, "%5.1f%% / %5.1f%%", 100 * rse[0], 100 * rse[1]));
      }
      System.out.println();
    }
    System.out.println();
    System.out.println("== visibility-map strata: variance of the estimate over " + SEEDS
        + " seeds, with strata / without (tail only), n = 100");
    for (PageValues t : tables) {
      if (t.blocks() < 400 || t.allVisible().isEmpty()) {
        continue;
      }
      double[] with = spread(t, 100, t.allVisible(), estimator);
      double[] without = spread(t, 100, BlockList.of(), estimator);
      System.out.printf(Locale.ROOT, "%-28s %5.1f%% all-visible: tuple_count %.2f, dead_tuple_len %.2f, free_space %.2f%n",
          t.name(), 100.0 * t.allVisible().size() / t.blocks(), with[0] / without[0], with[1] / without[1],
          with[2] / without[2]);
    }
  }

  /** Mean SE over truth, for dead_tuple_len and free_space. */
  private static double[] rse(PageValues t, long n, BlockList visible, StratifiedEstimator estimator) {
    Measure[] measures = {Measure.DEAD_TUPLE_LEN, Measure.FREE_SPACE};
    double[] out = new double[2];
    for (int seed = 0; seed < SEEDS; seed++) {
      RelationSample s = SamplePlanner.plan(t.blocks(), visible, n, BlockSampler.seedFor(seed, t.name()));
      StratifiedSums sums = t.read(s);
      for (int m = 0; m < 2; m++) {
        long truth = t.total(measures[m]);
        out[m] += truth == 0 ? 0 : estimator.total(measures[m], s.population(), sums).standardError() / truth;
      }
    }
    out[0] /= SEEDS;
    out[1] /= SEEDS;
    return out;
  }

  /** Empirical variance of the estimates of tuple_count, dead_tuple_len, free_space. */
  private static double[] spread(PageValues t, long n, BlockList visible, StratifiedEstimator estimator) {
    Measure[] measures = {Measure.TUPLE_COUNT, Measure.DEAD_TUPLE_LEN, Measure.FREE_SPACE};
    double[] sum = new double[3];
    double[] squares = new double[3];
    for (int seed = 0; seed < SEEDS; seed++) {
      RelationSample s = SamplePlanner.plan(t.blocks(), visible, n, BlockSampler.seedFor(seed, t.name()));
      StratifiedSums sums = t.read(s);
      for (int m = 0; m < 3; m++) {
        double v = estimator.total(measures[m], s.population(), sums).value();
        sum[m] += v;
        squares[m] += v * v;
      }
    }
    double[] variance = new double[3];
    for (int m = 0; m < 3; m++) {
      variance[m] = squares[m] / SEEDS - (sum[m] / SEEDS) * (sum[m] / SEEDS);
    }
    return variance;
  }
}
