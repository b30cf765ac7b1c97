package io.pgbloat.io.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.api.Test;

class BlockListTest {
  @Test
  void containsEveryBlockOfItsRunsAndNoOther() {
    BlockList blocks = BlockList.of(0, 1, 2, 7, 9, 10, 4_294_967_294L);
    Set<Long> in = Set.of(0L, 1L, 2L, 7L, 9L, 10L, 4_294_967_294L);
    for (long b = 0; b < 20; b++) {
      assertEquals(in.contains(b), blocks.contains(b), "block " + b);
    }
    assertEquals(true, blocks.contains(4_294_967_294L));
    assertEquals(false, blocks.contains(4_294_967_293L));
    assertEquals(false, BlockList.of().contains(0));
  }

  @Test
  void aUnionHoldsTheBlocksOfEitherAsRunsThatNeitherOverlapNorTouch() {
    BlockList a = BlockList.of(0, 1, 2, 10, 11, 20);
    BlockList b = BlockList.of(2, 3, 12, 30);
    BlockList both = a.union(b);
    assertEquals(9, both.size());
    assertEquals(4, both.runCount(), "0-3, 10-12, 20, 30");
    for (long x : new long[] {0, 1, 2, 3, 10, 11, 12, 20, 30}) {
      assertEquals(true, both.contains(x), "block " + x);
    }
    assertEquals(a.size(), a.union(BlockList.of()).size());
    assertEquals(b.size(), BlockList.of().union(b).size());
    assertEquals(1, BlockList.range(0, 5).union(BlockList.range(5, 5)).runCount());
  }
}
