package io.pgbloat.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.io.read.BlockList;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SamplePlannerTest {
  /** Blocks 0..999 all-visible in runs of 100, every other run. */
  private static BlockList visibleRuns() {
    BlockList.Builder b = new BlockList.Builder();
    for (long start = 0; start < 1000; start += 200) {
      b.addRun(start, 100);
    }
    return b.build();
  }

  @Test
  void tailIsTakenAndStrataFollowTheVisibilityMap() {
    BlockList visible = visibleRuns();
    RelationSample s = SamplePlanner.plan(1000, visible, 101, 7);
    assertEquals(1, s.population()[Stratum.TAKE_ALL.ordinal()]);
    assertEquals(500, s.population()[Stratum.ALL_VISIBLE.ordinal()]);
    assertEquals(499, s.population()[Stratum.OTHER.ordinal()]);
    assertEquals(101, s.sampledBlocks());
    long position = 0;
    long previous = -1;
    long[] perStratum = new long[Stratum.COUNT];
    for (int r = 0; r < s.sample().runCount(); r++) {
      for (long b = s.sample().runStart(r); b < s.sample().runStart(r) + s.sample().runLength(r); b++) {
        assertTrue(b > previous);
        previous = b;
        Stratum h = Stratum.of(s.strata()[(int) position++]);
        perStratum[h.ordinal()]++;
        boolean isVisible = (b / 100) % 2 == 0 && b < 999;
        if (b == 999) {
          assertEquals(Stratum.TAKE_ALL, h);
        } else {
          assertEquals(isVisible ? Stratum.ALL_VISIBLE : Stratum.OTHER, h, "block " + b);
        }
      }
    }
    assertEquals(999, previous);
    for (Stratum h : Stratum.values()) {
      assertEquals(s.planned()[h.ordinal()], perStratum[h.ordinal()], h.name());
    }
  }

  @Test
  void extensionAddsOnlyUnreadBlocksOfEachStratum() {
    BlockList visible = visibleRuns();
    RelationSample pilot = SamplePlanner.plan(1000, visible, 51, 3);
    RelationSample more = SamplePlanner.extend(pilot, visible, 401, 3);
    Set<Long> seen = new HashSet<>();
    for (RelationSample s : new RelationSample[] {pilot, more}) {
      for (int r = 0; r < s.sample().runCount(); r++) {
        for (long b = s.sample().runStart(r); b < s.sample().runStart(r) + s.sample().runLength(r); b++) {
          assertTrue(seen.add(b), "block " + b + " read twice");
        }
      }
    }
    assertEquals(401, seen.size());
    assertEquals(401, more.planned()[0] + more.planned()[1] + more.planned()[2]);
  }

  @Test
  void sampleCoveringTheRelationReadsEverythingInOneStratum() {
    RelationSample s = SamplePlanner.plan(50, BlockList.of(), 50, 1);
    assertTrue(s.isComplete());
    assertEquals(50, s.population()[Stratum.TAKE_ALL.ordinal()]);
  }
}
