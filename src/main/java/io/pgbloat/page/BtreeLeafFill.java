package io.pgbloat.page;

/**
 * How a btree build fills its leaves ({@code src/backend/access/nbtree/nbtsort.c}, _bt_buildadd,
 * the same 13-18), for the leaves' entries in key order: before it adds an item, a build closes
 * the page when the item does not fit with room for a heap TID in the high key, or when the
 * page's free space (PageGetFreeSpace), plus the posting list of the last item, which suffix
 * truncation takes away once it is the high key, is below the target free space
 * (BTGetTargetPageFreeSpace, {@code nbtree.h}: BLCKSZ·(100 − fillfactor)/100) and the page holds
 * two items at least. The last item then moves to the next page and a truncated copy of it is
 * the closed page's high key: so a leaf keeps the items that fit within the room the target
 * leaves (what is left of it past them unused), and its high key lies beyond that room.
 *
 * <pre>
 * a new build page: | header 24 | high key's line pointer 4 | ... | special 16 |
 *   PageGetFreeSpace = pd_upper − pd_lower − 4: {@link #NEW_PAGE_FREE} bytes, each item taking
 *   MAXALIGN(its size) and its line pointer
 * </pre>
 */
public final class BtreeLeafFill {
  /** PageGetFreeSpace of a new build page: _bt_blnewpage reserves the high key's line pointer. */
  public static final int NEW_PAGE_FREE = BtreePage.MAX_AVAIL - 2 * ItemId.SIZE_OF_ITEM_ID_DATA;
  /** The room a leaf must keep for the heap TID a high key may take: MAXALIGN(sizeof(ItemPointerData)). */
  static final int HIGH_KEY_TID_ROOM = PageHeader.maxAlign(IndexTuple.SIZE_OF_ITEM_POINTER_DATA);
  /** The build leaves a leaf's items, repeated, are filled into before the items a leaf keeps are counted. */
  private static final int PAGES_FOLLOWED = 2;

  private final int targetFree;
  private final Items plain = new Items();
  private final Items deduplicated = new Items();

  /** The fill of a build of an index of {@code fillfactor}; one serves one thread (its items are reused). */
  public BtreeLeafFill(int fillfactor) {
    this.targetFree = PageHeader.BLCKSZ * (100 - fillfactor) / 100;
  }

  /** The items of a leaf a build without deduplication adds, emptied for the next leaf. */
  Items plainItems() {
    return plain.clear();
  }

  /** The items of a leaf a deduplicating build adds, emptied for the next leaf. */
  Items deduplicatedItems() {
    return deduplicated.clear();
  }

  /**
   * A leaf's items in key order as a build would add them, gathered in runs of equal items:
   * each of a size (IndexTupleSize, MAXALIGNed, no line pointer) and, of those bytes, a posting
   * list's.
   */
  public static final class Items {
    private int[] size = new int[16];
    private int[] count = new int[16];
    private int[] postingBytes = new int[16];
    private int runs;
    private double items;

    Items clear() {
      runs = 0;
      items = 0;
      return this;
    }

    /** Adds {@code count} items of {@code size} bytes, {@code postingBytes} of them a posting list. */
    public void add(int size, int count, int postingBytes) {
      if (count > 0) {
        addRun(size, count, postingBytes);
        items += count;
      }
    }

    /** Adds {@code part} (below 1) of an item of {@code size} bytes: filled as one, counted as its part. */
    public void addPart(int size, double part, int postingBytes) {
      addRun(size, 1, postingBytes);
      items += part;
    }

    private void addRun(int size, int count, int postingBytes) {
      if (runs > 0 && this.size[runs - 1] == size && this.postingBytes[runs - 1] == postingBytes) {
        this.count[runs - 1] += count;
      } else {
        if (runs == this.size.length) {
          this.size = java.util.Arrays.copyOf(this.size, 2 * runs);
          this.count = java.util.Arrays.copyOf(this.count, 2 * runs);
          this.postingBytes = java.util.Arrays.copyOf(this.postingBytes, 2 * runs);
        }
        this.size[runs] = size;
        this.count[runs] = count;
        this.postingBytes[runs] = postingBytes;
        runs++;
      }
    }
  }

  /**
   * The room of build leaves {@code items} take, in units of {@link BtreePage#MAX_AVAIL} a leaf:
   * their count over the items a build leaf keeps of them, found by filling leaves with them
   * over and over (a leaf's neighbours in key order are like it) until they have all been placed
   * and {@link #PAGES_FOLLOWED} leaves closed.
   */
  public int room(Items items) {
    if (items.runs == 0) {
      return 0;
    }
    long total = 0, closed = 0, kept = 0, placed = 0;
    for (int run = 0; run < items.runs; run++) {
      total += items.count[run];
    }
    int free = NEW_PAGE_FREE, onPage = 0, lastSize = 0, lastPosting = 0;
    for (int run = 0; ; run = (run + 1) % items.runs) {
      int size = items.size[run];
      int posting = items.postingBytes[run];
      int step = size + ItemId.SIZE_OF_ITEM_ID_DATA;
      for (int k = 0; k < items.count[run]; ) {
        // a page holds two items at least (else the build would fail: no item is over a third of a page)
        if (onPage >= 2 && (free < size + HIGH_KEY_TID_ROOM || free + lastPosting < targetFree)) {
          closed++;
          kept += onPage - 1;
          free = NEW_PAGE_FREE - lastSize - ItemId.SIZE_OF_ITEM_ID_DATA;
          onPage = 1;
          if (closed >= PAGES_FOLLOWED && placed >= total) {
            return (int) Math.round(items.items * BtreePage.MAX_AVAIL * closed / kept);
          }
        }
        free -= step;
        onPage++;
        lastSize = size;
        lastPosting = posting;
        placed++;
        k++;
        // the run's next items, each added while the page stays at or above the closing limit
        int limit = Math.max(size + HIGH_KEY_TID_ROOM, targetFree - posting);
        if (onPage >= 2 && free >= limit && k < items.count[run]) {
          int more = Math.min(items.count[run] - k, (free - limit) / step + 1);
          free -= more * step;
          onPage += more;
          placed += more;
          k += more;
        }
      }
    }
  }

  /** The room of a leaf's {@code usedBytes} whose items could not be read: their share of what a leaf keeps. */
  public int roomOfBytes(int usedBytes) {
    return (int) Math.round(usedBytes * (double) BtreePage.MAX_AVAIL / Math.max(1, NEW_PAGE_FREE - targetFree));
  }
}
