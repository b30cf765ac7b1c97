package io.pgbloat.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.catalog.RelKind;
import io.pgbloat.catalog.Relation;
import org.junit.jupiter.api.Test;

class DeadFractionHistogramTest {
  private static final Relation TABLE = new Relation("db", "public", "t", RelKind.TABLE, "base/5/16384", "", 16384);

  @Test
  void fractionsFallInTenthsWithTheLastBinClosed() {
    DeadFractionHistogram h = DeadFractionHistogram.ofFractions(TABLE, 0.0, 0.0999, 0.1, 0.5, 0.95, 1.0);
    assertArrayEquals(new long[] {2, 1, 0, 0, 0, 1, 0, 0, 0, 2}, h.pagesPerBin());
    assertEquals(6, h.totalPages());
  }

  @Test
  void deadBytesAreBinnedInIntegerArithmetic() {
    // 819 bytes is just under 10 % of 8192 (819.2), 820 just over; 4096 is exactly half
    DeadFractionHistogram h = DeadFractionHistogram.ofDeadBytes(TABLE, 0, 819, 820, 4095, 4096, 8191, 8192);
    assertArrayEquals(new long[] {2, 1, 0, 0, 1, 1, 0, 0, 0, 2}, h.pagesPerBin());
    assertEquals(5, DeadFractionHistogram.binOfDeadBytes(4096));
    assertEquals(9, DeadFractionHistogram.binOfDeadBytes(8192));
  }

  @Test
  void rejectsFractionsAndBytesOutsideAPage() {
    assertThrows(IllegalArgumentException.class, () -> DeadFractionHistogram.ofFractions(TABLE, 1.01));
    assertThrows(IllegalArgumentException.class, () -> DeadFractionHistogram.ofFractions(TABLE, -0.01));
    assertThrows(IllegalArgumentException.class, () -> DeadFractionHistogram.ofFractions(TABLE, Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> DeadFractionHistogram.ofDeadBytes(TABLE, 8193));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new DeadFractionHistogram(TABLE, new long[9]));
    assertEquals("Cannot make a histogram: 9 bins, expected 10", e.getMessage());
  }

  @Test
  void countsCannotBeChangedFromOutside() {
    long[] counts = new long[DeadFractionHistogram.BINS];
    DeadFractionHistogram h = new DeadFractionHistogram(TABLE, counts);
    counts[0] = 5;
    h.pagesPerBin()[1] = 7;
    assertEquals(0, h.totalPages());
    assertEquals(h, new DeadFractionHistogram(TABLE, new long[DeadFractionHistogram.BINS]));
    assertTrue(h.toString().contains("db:public.t"));
  }
}
