package io.pgbloat.io.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Sorted blocks into reads: runs merged up to B, gaps up to the gap limit read through. */
class CombinedReadTest {
  private static BlockList blocks(long... numbers) {
    BlockList.Builder b = new BlockList.Builder();
    for (long n : numbers) {
      b.add(n);
    }
    return b.build();
  }

  @Test
  void gapsUpToTheLimitAreReadThroughWithinOneReadOfB() {
    List<CombinedRead> reads = CombinedRead.of(blocks(0, 1, 5, 9, 30, 31, 32, 33, 40), 8, 3);
    assertEquals(4, reads.size());
    CombinedRead first = reads.get(0); // 0-1 and 5 (3 apart); 9 would make it 10 blocks, over B
    assertEquals(0, first.first());
    assertEquals(6, first.count());
    assertArrayEquals(new int[] {0, 2, 5, 1}, first.wanted());
    assertEquals(3, first.handedOut());
    assertTrue(first.isWanted(5));
    assertFalse(first.isWanted(2));
    assertEquals(List.of(9L, 30L, 40L), reads.subList(1, 4).stream().map(CombinedRead::first).toList());
    assertEquals(List.of(1, 4, 1), reads.subList(1, 4).stream().map(CombinedRead::count).toList());
    reads.subList(1, 4).forEach(r -> assertNull(r.wanted())); // 30..33 to 40 is 6 apart: over the limit
  }

  @Test
  void withNoGapLimitOnlyAdjacentBlocksMergeAndLongRunsSplitAtB() {
    List<CombinedRead> reads = CombinedRead.of(blocks(0, 1, 3, 10, 11, 12, 13, 14), 3, 0);
    assertEquals(List.of(0L, 3L, 10L, 13L), reads.stream().map(CombinedRead::first).toList());
    assertEquals(List.of(2, 1, 3, 2), reads.stream().map(CombinedRead::count).toList());
    reads.forEach(r -> assertNull(r.wanted()));
  }

  @Test
  void theRestOfALongRunJoinsTheNextRunAcrossAGap() {
    List<CombinedRead> reads = CombinedRead.of(blocks(0, 1, 2, 3, 4, 6), 4, 1); // 0-3, then 4 and 6
    assertEquals(2, reads.size());
    assertEquals(4, reads.get(1).first());
    assertEquals(3, reads.get(1).count());
    assertArrayEquals(new int[] {0, 1, 2, 1}, reads.get(1).wanted());
  }
}
