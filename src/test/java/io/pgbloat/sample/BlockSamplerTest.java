package io.pgbloat.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.io.read.BlockList;
import org.junit.jupiter.api.Test;

class BlockSamplerTest {

  @Test
  void returnsExactlyThePlannedNumberSortedWithoutDuplicates() {
    for (long bigN : new long[] {1, 2, 7, 100, 1000, 22765}) {
      for (long n : new long[] {0, 1, 2, 50, 300, 3000}) {
        for (long seed = 0; seed < 20; seed++) {
          BlockSampler sampler = new BlockSampler(bigN, n, seed);
          long expected = Math.min(n, bigN);
          assertEquals(expected, sampler.sampleSize());
          long previous = -1;
          long count = 0;
          while (sampler.hasNext()) {
            long block = sampler.next();
            assertTrue(block > previous && block < bigN, "block " + block + " after " + previous + " of " + bigN);
            previous = block;
            count++;
          }
          assertEquals(expected, count, "N=" + bigN + " n=" + n + " seed=" + seed);
        }
      }
    }
  }

  @Test
  void sampleAsLargeAsThePopulationTakesEveryBlock() {
    assertEquals(BlockList.range(0, 37), BlockSampler.sample(37, 37, 5));
    assertEquals(BlockList.range(0, 37), BlockSampler.sample(37, 1000, 5));
  }

  /**
   * Every block equally likely: over 20000 seeds, each of N = 50 blocks is chosen about
   * 20000 × 10/50 = 4000 times; a chi-square test with 49 degrees of freedom at the 0.1 %
   * level (critical value 85.4) must not reject uniformity.
   */
  @Test
  void everyBlockIsEquallyLikely() {
    int bigN = 50;
    int n = 10;
    int seeds = 20000;
    long[] hits = new long[bigN];
    for (int seed = 0; seed < seeds; seed++) {
      BlockSampler sampler = new BlockSampler(bigN, n, BlockSampler.seedFor(seed, "db", "s", "t"));
      while (sampler.hasNext()) {
        hits[(int) sampler.next()]++;
      }
    }
    double expected = (double) seeds * n / bigN;
    double chiSquare = 0;
    for (long h : hits) {
      chiSquare += (h - expected) * (h - expected) / expected;
    }
    assertTrue(chiSquare < 85.4, "chi-square " + chiSquare);
  }

  @Test
  void sameSeedSameBlocksOtherSeedOtherBlocks() {
    assertEquals(BlockSampler.sample(10000, 100, 42), BlockSampler.sample(10000, 100, 42));
    assertNotEquals(BlockSampler.sample(10000, 100, 42), BlockSampler.sample(10000, 100, 43));
    assertNotEquals(BlockSampler.seedFor(1, "ab", "c"), BlockSampler.seedFor(1, "a", "bc"));
  }
}
