package io.pgbloat.stats;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.sample.BlockSampler;
import io.pgbloat.sample.RelationSample;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.sample.SamplePlanner;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * A target-RSE run on real tables: a pilot, then as many more blocks as the pilot says;
 * the final relative standard error of dead and free bytes lands near the target.
 */
class TargetRseTest {
  private static final double TARGET = 0.03;
  private static final int SEEDS = 50;

  @Test
  void pilotThenExtensionMeetsTheTarget() {
    StratifiedEstimator estimator = new StratifiedEstimator(0.95);
    for (PageValues t : PageValues.load("/pages/groundtruth-gt.csv.gz")) {
      if (!t.name().equals("public.uniform_dead") && !t.name().equals("public.wide_many_cols")) {
        continue;
      }
      double worst = 0;
      double blocks = 0;
      for (int seed = 0; seed < SEEDS; seed++) {
        long relationSeed = BlockSampler.seedFor(seed, t.name());
        RelationSample pilot = SamplePlanner.plan(t.blocks(), t.allVisible(), SampleSize.PILOT_BLOCKS, relationSeed);
        StratifiedSums sums = t.read(pilot);
        long need = SampleSizeCalculator.blocksFor(TARGET, List.of(Measure.DEAD_TUPLE_LEN, Measure.FREE_SPACE),
            pilot.population(), pilot.planned(), sums, estimator);
        RelationSample more = SamplePlanner.extend(pilot, t.allVisible(), need, relationSeed);
        sums.merge(t.read(more));
        blocks += more.sampledBlocks() + pilot.sampledBlocks();
        for (Measure m : List.of(Measure.DEAD_TUPLE_LEN, Measure.FREE_SPACE)) {
          Estimate e = estimator.total(m, more.population(), sums);
          worst = Math.max(worst, e.standardError() / e.value());
        }
      }
      String what = String.format(Locale.ROOT, "%s: worst RSE %.4f over %d seeds, %.0f blocks read on average",
          t.name(), worst, SEEDS, blocks / SEEDS);
      System.out.println(what);
      assertTrue(worst < TARGET * 1.25, what);
      assertTrue(blocks / SEEDS < t.blocks(), what);
    }
  }
}
