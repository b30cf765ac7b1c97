package io.pgbloat.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.page.IndexMetapage;
import org.junit.jupiter.api.Test;

/** pgstatindex's arithmetic and its "%.2f", checked against what C's printf prints. */
class IndexFiguresTest {

  @Test
  void printsAsGlibcPrintfRoundsTheExactBinaryValue() {
    // printf("%.2f") in C (glibc 2.36): 0.125 -> 0.12, 0.375 -> 0.38 (exact ties, to even);
    // 2.675 -> 2.67 and 1.005 -> 1.00 (their doubles lie just below the tie)
    assertEquals("0.12", IndexFigures.printed(0.125));
    assertEquals("0.38", IndexFigures.printed(0.375));
    assertEquals("2.67", IndexFigures.printed(2.675));
    assertEquals("1.00", IndexFigures.printed(1.005));
    assertEquals("90.00", IndexFigures.printed(89.999));
    assertEquals("100.00", IndexFigures.printed(100.0));
    assertEquals("NaN", IndexFigures.printed(Double.NaN));
  }

  @Test
  void percentagesAreNaNWithoutLeavesAndRoundedOtherwise() {
    assertTrue(Double.isNaN(IndexFigures.avgLeafDensity(0, 0)));
    assertTrue(Double.isNaN(IndexFigures.leafFragmentation(0, 0)));
    assertEquals(33.33, IndexFigures.leafFragmentation(1, 3));
    assertEquals(66.67, IndexFigures.leafFragmentation(2, 3));
    // 100 - 100 * 815 / 8152: 90.0024...
    assertEquals(90.0, IndexFigures.avgLeafDensity(815, 8152));
  }

  @Test
  void indexSizeIsEveryBlockAndCountsAreRoundedTotals() {
    IndexFigures f = IndexFigures.of(IndexMetapage.btree(4, 3, 2, true), 10,
        new IndexTotals(6.4, 2.6, 0, 1, 8152 * 6.4 * 0.1, 8152 * 6.4, 0.8));
    assertEquals(4, f.version());
    assertEquals(2, f.treeLevel());
    assertEquals(3, f.rootBlockNo());
    assertEquals(10 * 8192, f.indexSize());
    assertEquals(6, f.leafPages());
    assertEquals(3, f.internalPages());
    assertEquals(90.0, f.avgLeafDensity());
    assertEquals(12.5, f.leafFragmentation()); // 0.8 / 6.4 * 100
  }
}
