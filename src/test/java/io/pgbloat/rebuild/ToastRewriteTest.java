package io.pgbloat.rebuild;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The replay of a TOAST table's chunks holds the chunks it is given, however a sample mixed their kinds. */
class ToastRewriteTest {
  /** A short chunk's item of about 1000 bytes (4 more than a multiple of 8, as chunk items are). */
  private static final int SHORT_ITEM = 1004;

  @Test
  void aSamplesMixOfKindsAddsNoChunks() {
    // 400 chunks, 200 of them full, so 200 values; 50 of two chunks and 50 of three take 150 of
    // the full chunks, leaving 50 for the other 100 values: fewer than the three each a value of
    // four chunks or more has, as a sample's counts can be
    double chunks = 400;
    double full = 200;
    double shorts = chunks - full;
    double itemBytes = full * ToastRewrite.FULL_CHUNK_ITEM + shorts * SHORT_ITEM;
    double itemSquares = full * ToastRewrite.FULL_CHUNK_ITEM * (double) ToastRewrite.FULL_CHUNK_ITEM
        + shorts * SHORT_ITEM * (double) SHORT_ITEM;
    double pages = ToastRewrite.pages(chunks, new ToastRewrite.ChunkTotals(full, 0, 50, 50), itemBytes, itemSquares, 0);
    // any three chunk items share a page (3 × 2036 bytes fit in 8168), so 400 chunks need at most 134
    assertTrue(pages <= Math.ceil(chunks / 3), "pages " + pages);
    // and they hold at least the bytes of the items
    assertTrue(pages >= Math.ceil(itemBytes / TableRewrite.pageCapacity(100)), "pages " + pages);
  }
}
