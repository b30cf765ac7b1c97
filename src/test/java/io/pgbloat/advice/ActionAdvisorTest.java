package io.pgbloat.advice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.figures.RelationFigures;
import io.pgbloat.stats.Estimate;
import org.junit.jupiter.api.Test;

/** Actions decided from the intervals against the thresholds, never from the point estimate alone. */
class ActionAdvisorTest {
  private static final long MB = 1L << 20;
  private static final ActionThresholds T = new ActionThresholds(64 * MB, 20);

  /** A 1 GB table (131072 blocks) with these dead and reclaimable bytes. */
  private static RelationFigures figures(Estimate dead, Estimate reclaimable) {
    return new RelationFigures(131072, 131072, 0, Estimate.exact(1000), Estimate.exact(500 * MB),
        Estimate.exact(10), dead, Estimate.exact(10 * MB), Estimate.exact(0), 100, reclaimable, false);
  }

  private static Estimate around(double value, double halfWidth) {
    return new Estimate(value, halfWidth / 1.96, value - halfWidth, value + halfWidth);
  }

  @Test
  void aRewriteWhenTheWholeIntervalPassesBothThresholds() {
    Advice a = ActionAdvisor.advise(figures(Estimate.exact(0), around(400 * MB, 50 * MB)), "", T);
    assertEquals(Action.REWRITE, a.action());
    // the new copy is at most the table less the least it gives back: 1024 - 350 MB
    assertEquals(1024 * MB - 350 * MB, a.rewriteNeedsBytes());
    assertTrue(a.reason().contains("VACUUM FULL, CLUSTER or pg_repack gives back 400 MB"), a.reason());
    assertTrue(a.reason().contains("674 MB of free disk"), a.reason());
  }

  @Test
  void anIntervalStraddlingAThresholdAsksForMoreSample() {
    // 240 MB is 23 % of 1 GB, but the interval reaches down to 140 MB, 14 %: not sure
    Advice a = ActionAdvisor.advise(figures(Estimate.exact(0), around(240 * MB, 100 * MB)), "", T);
    assertEquals(Action.SAMPLE_MORE, a.action(), a.reason());
    assertTrue(a.reason().contains("straddles 64 MB and 20.0 %"), a.reason());
  }

  @Test
  void deadTuplesWithNothingToGiveBackAskForAVacuum() {
    Advice a = ActionAdvisor.advise(figures(Estimate.exact(300 * MB), Estimate.exact(10 * MB)), "", T);
    assertEquals(Action.VACUUM, a.action(), a.reason());
    assertEquals(0, a.rewriteNeedsBytes());
  }

  @Test
  void belowEitherThresholdOrTooSmallThereIsNothingToDo() {
    assertEquals(Action.NONE, ActionAdvisor.advise(figures(Estimate.exact(MB), Estimate.exact(100 * MB)), "",
        T).action(), "100 MB is under 20 % of 1 GB");
    RelationFigures tiny = new RelationFigures(5, 5, 0, Estimate.exact(1), Estimate.exact(100), Estimate.exact(0),
        Estimate.exact(0), Estimate.exact(36000), Estimate.exact(36000), 100, Estimate.exact(32768), false);
    Advice a = ActionAdvisor.advise(tiny, "", T);
    assertEquals(Action.NONE, a.action(), "a 40 kB catalog at 90 % free is not a problem");
    assertTrue(a.reason().startsWith("smaller than 64 MB"), a.reason());
    assertEquals(Action.NONE, ActionAdvisor.advise(figures(Estimate.unknown(), Estimate.unknown()), "", T).action());
  }

  @Test
  void aToastTableIsRewrittenWithItsOwner() {
    Advice a = ActionAdvisor.advise(figures(Estimate.exact(0), Estimate.exact(500 * MB)), "public.documents", T);
    assertEquals(Action.REWRITE, a.action());
    assertTrue(a.reason().startsWith("a VACUUM FULL of public.documents gives back"), a.reason());
  }
}
