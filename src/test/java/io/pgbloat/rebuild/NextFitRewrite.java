package io.pgbloat.rebuild;

import io.pgbloat.page.HeapPage;
import io.pgbloat.page.ItemId;
import io.pgbloat.page.PageHeader;

/**
 * The rewrite's page filling replayed tuple by tuple, as raw_heap_insert
 * ({@code src/backend/access/heap/rewriteheap.c}) does it: an independent answer for
 * {@link TableRewrite}'s model. A page keeps pd_lower and pd_upper; a tuple goes on it when
 * MAXALIGN(t_len) + saveFreeSpace ≤ PageGetHeapFreeSpace, else a new page is started.
 */
final class NextFitRewrite {
  private final int saveFreeSpace;
  private long pages;
  private int lower;
  private int upper;
  private int items;

  NextFitRewrite(int fillfactor) {
    this.saveFreeSpace = PageHeader.BLCKSZ * (100 - fillfactor) / 100;
  }

  /** Adds one tuple of {@code tupleLength} (t_len) bytes. */
  void add(int tupleLength) {
    int len = PageHeader.maxAlign(tupleLength);
    if (pages == 0 || len + saveFreeSpace > heapFreeSpace()) {
      pages++;
      lower = PageHeader.SIZE_OF_PAGE_HEADER_DATA; // PageInit
      upper = PageHeader.BLCKSZ;
      items = 0;
    }
    lower += ItemId.SIZE_OF_ITEM_ID_DATA; // PageAddItem
    upper -= len;
    items++;
  }

  /** PageGetHeapFreeSpace of the page being filled (a rewritten page has no free line pointers). */
  private int heapFreeSpace() {
    int space = upper - lower - ItemId.SIZE_OF_ITEM_ID_DATA;
    return space < 0 || items >= HeapPage.MAX_HEAP_TUPLES_PER_PAGE ? 0 : space;
  }

  long pages() {
    return pages;
  }
}
