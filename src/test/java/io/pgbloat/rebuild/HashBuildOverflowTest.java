package io.pgbloat.rebuild;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HashBuildOverflowTest {
  @Test
  void lnFactorialIsExactOnBothSidesOfStirling() {
    assertEquals(0, HashBuildOverflow.lnFactorial(0));
    assertEquals(Math.log(3628800), HashBuildOverflow.lnFactorial(10), 1e-12);
    double sum = 0;
    for (int k = 2; k <= 400; k++) {
      sum += Math.log(k);
    }
    assertEquals(sum, HashBuildOverflow.lnFactorial(400), 1e-9);
  }

  @Test
  void poissonTailsFromEitherSide() {
    assertEquals(1 - Math.exp(-2) * (1 + 2 + 2), HashBuildOverflow.upperTail(2, 2), 1e-15); // P(X > 2), mean 2
    assertEquals(0.5, HashBuildOverflow.upperTail(400, 400), 0.02); // about half past the mean
    assertEquals(0, HashBuildOverflow.upperTail(0, 5));
    assertEquals(0, HashBuildOverflow.upperTail(10, 407), 1e-300);
    assertEquals(1, HashBuildOverflow.upperTail(2000, 407), 1e-12);
  }

  @Test
  void overflowPagesInUseByShareOfTheHashCodes() {
    // 128 buckets of 300 tuples each overflow almost never; of 610, between one page and two, each has one
    assertEquals(0, HashBuildOverflow.inUse(128, 128 * 300.0), 1e-3);
    assertEquals(128, HashBuildOverflow.inUse(128, 128 * 610.0), 1e-6);
    // 192 buckets: 64 of them unsplit take twice the 128 split ones' share
    double unsplit = HashBuildOverflow.pagesPastFirst(192 * 300.0 / 128);
    double split = HashBuildOverflow.pagesPastFirst(192 * 300.0 / 256);
    assertEquals(64 * unsplit + 128 * split, HashBuildOverflow.inUse(192, 192 * 300.0), 1e-9);
  }

  @Test
  void theMostInUseAlongTheBuild() {
    // no split, a third full: none; 768 buckets filled to 307 a bucket before splitting: the unsplit 256 overflow
    assertEquals(0, HashBuildOverflow.pages(256, 256, 25000, 307));
    assertEquals(254, HashBuildOverflow.pages(768, 1303, 400000, 307), 3);
  }
}
