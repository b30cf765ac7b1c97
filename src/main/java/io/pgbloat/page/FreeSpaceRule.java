package io.pgbloat.page;

/**
 * How a version's pgstattuple and pgstatindex measure a page's free space
 * ({@code contrib/pgstattuple/pgstattuple.c}, {@code pgstatindex.c}); the functions named are
 * those of {@code src/backend/storage/page/bufpage.c}.
 */
public enum FreeSpaceRule {
  /**
   * PostgreSQL 13-17: room for one more tuple. A heap page counts {@code PageGetHeapFreeSpace},
   * an index page {@code PageGetFreeSpace}: the gap between pd_lower and pd_upper less the
   * line pointer the next tuple needs.
   */
  ROOM_FOR_A_TUPLE {
    @Override
    public int heapPage(byte[] page, int maxOffset) {
      int space = roomForATuple(page);
      if (space > 0 && maxOffset >= HeapPage.MAX_HEAP_TUPLES_PER_PAGE && !hasFreeLinePointer(page, maxOffset)) {
        // PageGetHeapFreeSpace: a page already holding MaxHeapTuplesPerPage line pointers
        // takes no new tuple unless one of them is free to reuse
        return 0;
      }
      return space;
    }

    @Override
    public int indexPage(byte[] page) {
      return roomForATuple(page);
    }
  },

  /**
   * PostgreSQL 18: {@code PageGetExactFreeSpace} on heap and index pages alike, the whole gap
   * between pd_lower and pd_upper.
   */
  EXACT {
    @Override
    public int heapPage(byte[] page, int maxOffset) {
      return exact(page);
    }

    @Override
    public int indexPage(byte[] page) {
      return exact(page);
    }
  };

  /** The free space of a sound heap page holding {@code maxOffset} line pointers. */
  public abstract int heapPage(byte[] page, int maxOffset);

  /** The free space of a sound index page. */
  public abstract int indexPage(byte[] page);

  /** PageGetExactFreeSpace: pd_upper - pd_lower, never negative. */
  static int exact(byte[] page) {
    return Math.max(0, PageHeader.upper(page) - PageHeader.lower(page));
  }

  /**
   * PageGetFreeSpace: the gap between pd_lower and pd_upper, less one line pointer for the
   * next tuple; zero if not even that fits.
   */
  static int roomForATuple(byte[] page) {
    int space = exact(page);
    return space < ItemId.SIZE_OF_ITEM_ID_DATA ? 0 : space - ItemId.SIZE_OF_ITEM_ID_DATA;
  }

  /**
   * Whether a page with the full MaxHeapTuplesPerPage line pointers can reuse one: PageAddItem
   * believes the PD_HAS_FREE_LINES hint even when it is wrong, so we must too; a hint that is
   * set may be stale, so a free line pointer must really exist.
   */
  private static boolean hasFreeLinePointer(byte[] page, int maxOffset) {
    if ((PageHeader.flags(page) & PageHeader.PD_HAS_FREE_LINES) == 0) {
      return false;
    }
    for (int off = 1; off <= maxOffset; off++) {
      if (ItemId.flags(ItemId.word(page, off)) == ItemId.LP_UNUSED) {
        return true;
      }
    }
    return false;
  }
}
