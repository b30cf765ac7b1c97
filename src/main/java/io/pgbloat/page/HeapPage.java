package io.pgbloat.page;

/**
 * Counts one heap page the way {@code contrib/pgstattuple/pgstattuple.c} (pgstat_heap)
 * does: every LP_NORMAL item is a tuple of length lp_len, live or dead by the given
 * {@link TupleVisibility}; the free space as the cluster's version measures it
 * ({@link FreeSpaceRule}). Items are checked
 * against the bounds {@code contrib/amcheck/verify_heapam.c} checks, so that a damaged page
 * is reported rather than read past. One per thread: it counts into sums it keeps, as its
 * visibility rule keeps commit-log pages.
 */
public final class HeapPage {
  /**
   * MaxHeapTuplesPerPage ({@code htup_details.h}): (BLCKSZ - SizeOfPageHeaderData) /
   * (MAXALIGN(SizeofHeapTupleHeader) + sizeof(ItemIdData)) = 291.
   */
  public static final int MAX_HEAP_TUPLES_PER_PAGE =
      (PageHeader.BLCKSZ - PageHeader.SIZE_OF_PAGE_HEADER_DATA)
          / (PageHeader.maxAlign(HeapTupleHeader.SIZEOF_HEAP_TUPLE_HEADER) + ItemId.SIZE_OF_ITEM_ID_DATA);

  private final PageVerifier verifier;
  private final FreeSpaceRule freeSpace;
  private final TupleVisibility visibility;
  private final boolean countsToastChunks;
  private final ItemTally items = new ItemTally();

  /** Counts pages of a table, materialized view or catalog: no TOAST chunks. */
  public HeapPage(PageRules rules, TupleVisibility visibility) {
    this(rules, visibility, false);
  }

  /**
   * @param countsToastChunks whether the live tuples are also counted as TOAST chunks
   *     ({@link ToastChunks}): only for a TOAST table, since reading each tuple's chunk_seq
   *     again costs about a third more per page
   */
  public HeapPage(PageRules rules, TupleVisibility visibility, boolean countsToastChunks) {
    this.verifier = rules.verifier();
    this.freeSpace = rules.freeSpace();
    this.visibility = visibility;
    this.countsToastChunks = countsToastChunks;
  }

  /**
   * Picks, by their header fields, the tuples whose outcome a count had to assume: a compressed
   * backup's pages are counted before its commit log is known, their undecided tuples taken as
   * live, and counted both ways at once ({@link #countBothWays}).
   */
  @FunctionalInterface
  public interface AssumedTuples {
    /** Whether the tuple of these fields, just answered by the visibility, was assumed live. */
    boolean isAssumed(int xmin, int xmax, int infomask, int xvac);
  }

  /** A page counted with its assumed tuples live, as the visibility answered them, and as if they were dead. */
  public record BothWays(HeapPageStats assumedLive, HeapPageStats assumedDead) {}

  /**
   * Counts {@code page}, found at {@code blockNumber} of its relation. Never throws for a bad
   * page: the problem is in the result.
   */
  public HeapPageStats count(byte[] page, long blockNumber) {
    return count(page, blockNumber, TableColumns.AS_STORED);
  }

  /**
   * {@link #count(byte[], long)} of a page of a table of {@code columns}, which say what each
   * live tuple takes once a rewrite formed it again ({@link HeapPageStats#liveItemBytes}).
   */
  public HeapPageStats count(byte[] page, long blockNumber, TableColumns columns) {
    return count(page, blockNumber, null, columns).assumedLive();
  }

  /**
   * Counts {@code page} as {@link #count} does, the tuples {@code assumed} picks live as the
   * visibility answers them, and once more with those tuples dead, in the one pass: the two
   * differ in those tuples' sums alone.
   */
  public BothWays countBothWays(byte[] page, long blockNumber, AssumedTuples assumed) {
    return count(page, blockNumber, assumed, TableColumns.AS_STORED);
  }

  private BothWays count(byte[] page, long blockNumber, AssumedTuples assumed, TableColumns columns) {
    String insane = verifier.check(page, blockNumber);
    if (insane != null) {
      return bad(blockNumber, insane);
    }
    if (PageHeader.isNew(page)) {
      HeapPageStats empty = HeapPageStats.newPage();
      return new BothWays(empty, empty);
    }
    int maxOffset = PageHeader.maxOffsetNumber(page);
    if (maxOffset > MAX_HEAP_TUPLES_PER_PAGE) {
      return bad(blockNumber, "pd_lower " + PageHeader.lower(page) + " gives " + maxOffset
          + " line pointers, more than " + MAX_HEAP_TUPLES_PER_PAGE);
    }
    String wrong = items.count(page, blockNumber, maxOffset, assumed, columns);
    if (wrong != null) {
      return bad(blockNumber, wrong);
    }
    int tupleArea = PageHeader.special(page) - PageHeader.upper(page);
    if (items.liveLen + items.deadLen > tupleArea) {
      // items overlap: their lengths add up to more than the space tuples occupy
      return bad(blockNumber, "tuples of " + (items.liveLen + items.deadLen) + " bytes in all do not fit the "
          + tupleArea + " bytes between pd_upper and pd_special: items overlap");
    }
    return bothWays(page, maxOffset, assumed);
  }

  /** The page's stats from its counted items: as the visibility answered, and with the assumed tuples dead. */
  private BothWays bothWays(byte[] page, int maxOffset, AssumedTuples assumed) {
    ItemTally t = items;
    boolean allVisible = (PageHeader.flags(page) & PageHeader.PD_ALL_VISIBLE) != 0;
    HeapPageStats asCounted = new HeapPageStats(t.live, t.liveLen, t.dead, t.deadLen,
        freeSpace.heapPage(page, maxOffset), t.liveItems, HeapPageStats.squaresInBlockUnits(t.liveItemSquares),
        countsToastChunks ? toastChunks(page, maxOffset, null) : ToastChunks.NONE, t.unused, t.normal, t.redirect,
        t.lpDead, t.heapOnly, t.deadRoots, t.deletedRoots, false, allVisible, t.withoutOutcome, null);
    if (t.assumedLive == 0) {
      return new BothWays(asCounted, asCounted);
    }
    return new BothWays(asCounted, asCounted.withLiveTuplesDead(t.assumedLive, t.assumedLen, t.assumedItems,
        HeapPageStats.squaresInBlockUnits(t.liveItemSquares - t.assumedItemSquares),
        countsToastChunks ? toastChunks(page, maxOffset, assumed) : ToastChunks.NONE, t.assumedRoots,
        t.assumedDeletedRoots));
  }

  /**
   * The sums of one page's line pointers and tuples, as {@link #count} adds them up: one per
   * HeapPage, reset for each page, so that counting a page allocates nothing.
   */
  private final class ItemTally {
    int live, liveLen, dead, deadLen, liveItems;
    long liveItemSquares;
    int unused, normal, redirect, lpDead, heapOnly, deadRoots, deletedRoots, withoutOutcome;
    long block;
    int assumedLive, assumedLen, assumedItems, assumedRoots, assumedDeletedRoots;
    long assumedItemSquares;
    TableColumns columns;

    /** Counts the page's items 1..maxOffset; null when all are sound, else what is wrong with the first that is not. */
    String count(byte[] page, long blockNumber, int maxOffset, AssumedTuples assumed, TableColumns tableColumns) {
      block = blockNumber;
      columns = tableColumns;
      live = liveLen = dead = deadLen = liveItems = 0;
      liveItemSquares = assumedItemSquares = 0;
      unused = normal = redirect = lpDead = heapOnly = deadRoots = deletedRoots = withoutOutcome = 0;
      assumedLive = assumedLen = assumedItems = assumedRoots = assumedDeletedRoots = 0;
      int upper = PageHeader.upper(page);
      for (int off = 1; off <= maxOffset; off++) {
        int word = ItemId.word(page, off);
        String wrong = null;
        switch (ItemId.flags(word)) {
          case ItemId.LP_UNUSED -> unused++;
          case ItemId.LP_REDIRECT -> {
            int target = ItemId.offset(word);
            if (target < 1 || target > maxOffset) {
              wrong = "item " + off + " redirects to item " + target + ", outside 1.." + maxOffset;
            }
            redirect++;
          }
          case ItemId.LP_DEAD -> lpDead++;
          default -> wrong = countTuple(page, off, word, upper, assumed);
        }
        if (wrong != null) {
          return wrong;
        }
      }
      return null;
    }

    /** Counts the LP_NORMAL item {@code off}; null when it is sound, else what is wrong with it. */
    private String countTuple(byte[] page, int off, int word, int upper, AssumedTuples assumed) {
      int tuple = ItemId.offset(word);
      int len = ItemId.length(word);
      String wrong = itemProblem(page, off, tuple, len);
      if (wrong == null && tuple < upper) {
        wrong = "item " + off + " at offset " + tuple + " lies below pd_upper " + upper;
      }
      if (wrong != null) {
        return wrong;
      }
      normal++;
      boolean heapOnlyTuple = (HeapTupleHeader.infomask2(page, tuple) & HeapTupleHeader.HEAP_ONLY_TUPLE) != 0;
      if (heapOnlyTuple) {
        heapOnly++;
      }
      int xmin = HeapTupleHeader.xmin(page, tuple);
      int xmax = HeapTupleHeader.xmax(page, tuple);
      int infomask = HeapTupleHeader.infomask(page, tuple);
      int xvac = HeapTupleHeader.xvac(page, tuple);
      TupleVerdict verdict;
      try {
        verdict = visibility.verdict(xmin, xmax, infomask, xvac);
      } catch (io.pgbloat.error.CommitStatusUnavailableException e) {
        return "item " + off + ": " + e.getMessage();
      }
      if (verdict.withoutOutcome()) {
        withoutOutcome++;
      }
      if (!verdict.isLive()) {
        dead++;
        deadLen += len;
        if (!heapOnlyTuple) {
          switch (chainEnd(page, tuple, off)) {
            case LIVE -> { } // a build indexes the chain's live version at this root: its entry stays
            case DELETED -> {
              deadRoots++;
              deletedRoots++;
            }
            case UPDATED_AWAY -> deadRoots++;
          }
        }
        return null;
      }
      int item = HeapPageStats.itemBytes(columns.rewrittenLength(page, tuple, len));
      live++;
      liveLen += len;
      liveItems += item;
      liveItemSquares += (long) item * item;
      if (assumed != null && assumed.isAssumed(xmin, xmax, infomask, xvac)) {
        assumedLive++;
        assumedLen += len;
        assumedItems += item;
        assumedItemSquares += (long) item * item;
        if (!heapOnlyTuple) {
          assumedRoots++;
          assumedDeletedRoots += HeapTupleHeader.ctidIsSelfOrMoved(page, tuple, block, off) ? 1 : 0;
        }
      }
      return null;
    }
  }

  /** How the row of a dead root fares along its HOT chain on the page. */
  private enum ChainEnd {
    /** A heap-only version of it is live. */
    LIVE,
    /** Its last version on the page was deleted (its t_ctid at itself). */
    DELETED,
    /** Its last version on the page was updated off the chain (a new root), or the chain breaks. */
    UPDATED_AWAY
  }

  /**
   * How the HOT chain from the dead root {@code tuple} at item {@code off} ends, following
   * t_ctid while a version is HEAP_HOT_UPDATED to a heap-only tuple on the page whose xmin is
   * its xmax, as heap_hot_search_buffer does ({@code src/backend/access/heap/heapam.c}). A
   * build indexes a chain's live version at the root's TID (heapam_index_build_range_scan,
   * {@code heapam_handler.c}), so an index entry pointing at the root stays while any version
   * on the chain is live; a row whose last version was deleted is gone with its entries. A
   * chain that breaks (a version pruned, an outcome unknown) counts as updated away.
   */
  private ChainEnd chainEnd(byte[] page, int root, int rootOff) {
    int at = root;
    int atOff = rootOff;
    int maxOffset = PageHeader.maxOffsetNumber(page);
    for (int step = 0; step < maxOffset && (HeapTupleHeader.infomask2(page, at) & HeapTupleHeader.HEAP_HOT_UPDATED) != 0;
        step++) {
      int next = IndexTuple.posid(page, at + HeapTupleHeader.T_CTID_OFFSET);
      if (IndexTuple.blockId(page, at + HeapTupleHeader.T_CTID_OFFSET) != items.block || next < 1
          || next > maxOffset) {
        return ChainEnd.UPDATED_AWAY;
      }
      int word = ItemId.word(page, next);
      int tuple = ItemId.offset(word);
      if (ItemId.flags(word) != ItemId.LP_NORMAL
          || itemProblem(page, next, tuple, ItemId.length(word)) != null
          || (HeapTupleHeader.infomask2(page, tuple) & HeapTupleHeader.HEAP_ONLY_TUPLE) == 0
          || HeapTupleHeader.xmin(page, tuple) != HeapTupleHeader.xmax(page, at)) {
        return ChainEnd.UPDATED_AWAY;
      }
      try {
        if (visibility.verdict(HeapTupleHeader.xmin(page, tuple), HeapTupleHeader.xmax(page, tuple),
            HeapTupleHeader.infomask(page, tuple), HeapTupleHeader.xvac(page, tuple)).isLive()) {
          return ChainEnd.LIVE;
        }
      } catch (io.pgbloat.error.CommitStatusUnavailableException e) {
        return ChainEnd.UPDATED_AWAY; // the version's own count says what is missing
      }
      at = tuple;
      atOff = next;
    }
    return HeapTupleHeader.ctidIsSelfOrMoved(page, at, items.block, atOff) ? ChainEnd.DELETED : ChainEnd.UPDATED_AWAY;
  }

  /**
   * The live tuples of a page already found sound, but those {@code assumed} picks (if not null),
   * counted as TOAST chunks: a second pass, so that the count of every other relation's pages
   * pays nothing for it.
   */
  private ToastChunks toastChunks(byte[] page, int maxOffset, AssumedTuples assumed) {
    int full = 0, lastOfOne = 0, lastOfTwo = 0, lastOfThree = 0;
    for (int off = 1; off <= maxOffset; off++) {
      int word = ItemId.word(page, off);
      if (ItemId.flags(word) != ItemId.LP_NORMAL) {
        continue;
      }
      int tuple = ItemId.offset(word);
      if (HeapTupleHeader.natts(page, tuple) != ToastChunks.CHUNK_ATTRIBUTES) {
        continue; // no chunk: a page counted before its table is known to be a TOAST table may be a plain one's
      }
      int xmin = HeapTupleHeader.xmin(page, tuple);
      int xmax = HeapTupleHeader.xmax(page, tuple);
      int infomask = HeapTupleHeader.infomask(page, tuple);
      int xvac = HeapTupleHeader.xvac(page, tuple);
      if (!visibility.isLive(xmin, xmax, infomask, xvac)
          || (assumed != null && assumed.isAssumed(xmin, xmax, infomask, xvac))) {
        continue;
      }
      switch (ToastChunks.kind(page, tuple, ItemId.length(word))) {
        case ToastChunks.FULL -> full++;
        case 0 -> lastOfOne++;
        case 1 -> lastOfTwo++;
        case 2 -> lastOfThree++;
        default -> { } // a chunk of a longer value
      }
    }
    return ToastChunks.of(full, lastOfOne, lastOfTwo, lastOfThree);
  }

  /**
   * The bounds amcheck's verify_heapam.c holds every LP_NORMAL item and its header to.
   *
   * @return null when item {@code off} at {@code tuple} of {@code len} bytes may be read,
   *     else what is wrong with it
   */
  public static String itemProblem(byte[] page, int off, int tuple, int len) {
    int special = PageHeader.special(page);
    if (tuple != PageHeader.maxAlign(tuple)) {
      return "item " + off + " offset " + tuple + " is not MAXALIGNed";
    }
    if (len < PageHeader.maxAlign(HeapTupleHeader.SIZEOF_HEAP_TUPLE_HEADER)) {
      return "item " + off + " length " + len + " is shorter than a tuple header ("
          + PageHeader.maxAlign(HeapTupleHeader.SIZEOF_HEAP_TUPLE_HEADER) + ")";
    }
    if (tuple < PageHeader.SIZE_OF_PAGE_HEADER_DATA || tuple + len > special) {
      return "item " + off + " at offset " + tuple + " length " + len
          + " extends beyond the tuple area (ends at " + special + ")";
    }
    int hoff = HeapTupleHeader.hoff(page, tuple);
    if (hoff != PageHeader.maxAlign(hoff) || hoff < HeapTupleHeader.SIZEOF_HEAP_TUPLE_HEADER || hoff > len) {
      return "item " + off + " t_hoff " + hoff + " is not a MAXALIGNed offset within its length " + len;
    }
    return null;
  }

  private static BothWays bad(long block, String reason) {
    HeapPageStats bad = HeapPageStats.bad(new PageProblem(block, reason));
    return new BothWays(bad, bad);
  }
}
