package io.pgbloat.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** Edge cases of page counting and sanity, on pages built here byte by byte. */
class HeapPageTest {
  private static final HeapPage ALL_LIVE = new HeapPage(new PageRules(false, FreeSpaceRule.ROOM_FOR_A_TUPLE), (xmin, xmax, infomask, xvac) -> true);

  /** An empty heap page: header only, pd_lower 24, pd_upper = pd_special = 8192. */
  private static ByteBuffer emptyPage() {
    ByteBuffer b = ByteBuffer.allocate(PageHeader.BLCKSZ).order(ByteOrder.LITTLE_ENDIAN);
    b.putShort(PageHeader.PD_LOWER_OFFSET, (short) 24);
    b.putShort(PageHeader.PD_UPPER_OFFSET, (short) 8192);
    b.putShort(PageHeader.PD_SPECIAL_OFFSET, (short) 8192);
    b.putShort(PageHeader.PD_PAGESIZE_VERSION_OFFSET, (short) (8192 | 4));
    return b;
  }

  private static void setItem(ByteBuffer b, int offsetNumber, int lpOff, int flags, int lpLen) {
    b.putInt(24 + (offsetNumber - 1) * 4, lpOff | flags << 15 | lpLen << 17);
  }

  @Test
  void allZeroPageIsNewAndCountsNothing() {
    HeapPageStats stats = ALL_LIVE.count(new byte[PageHeader.BLCKSZ], 7);
    assertTrue(stats.isNew());
    assertNull(stats.problem());
    assertEquals(0, stats.freeSpace());
  }

  @Test
  void rejectsNewLookingPageThatIsNotAllZero() {
    byte[] page = new byte[PageHeader.BLCKSZ];
    page[4000] = 1;
    assertEquals("pd_upper is 0 but the page is not all zero", ALL_LIVE.count(page, 0).problem().reason());
  }

  @Test
  void emptyPageHasAllButOneLinePointerFree() {
    HeapPageStats stats = ALL_LIVE.count(emptyPage().array(), 0);
    assertNull(stats.problem());
    assertEquals(8192 - 24 - 4, stats.freeSpace());
  }

  /** Offsets of the tuples of {@link #toastLikePage}. */
  private static final int FULL_CHUNK = 8192 - 2032;
  private static final int LAST_CHUNK = FULL_CHUNK - 104;
  private static final int DEAD_TUPLE = LAST_CHUNK - 64;

  /**
   * A TOAST-like page: one full chunk (t_len 2032), a short last chunk of chunk_seq 1 (t_len
   * 101: MAXALIGN 104) and a tuple of 60 bytes.
   */
  private static ByteBuffer toastLikePage() {
    ByteBuffer b = emptyPage();
    setItem(b, 1, FULL_CHUNK, ItemId.LP_NORMAL, 2032);
    setItem(b, 2, LAST_CHUNK, ItemId.LP_NORMAL, 101);
    setItem(b, 3, DEAD_TUPLE, ItemId.LP_NORMAL, 60);
    for (int tuple : new int[] {FULL_CHUNK, LAST_CHUNK, DEAD_TUPLE}) {
      b.put(tuple + HeapTupleHeader.T_HOFF_OFFSET, (byte) 24);
      b.putShort(tuple + HeapTupleHeader.T_INFOMASK2_OFFSET, (short) 3); // chunk_id, chunk_seq, chunk_data
    }
    b.putInt(LAST_CHUNK + 24 + 4, 1); // chunk_seq after chunk_id
    b.putShort(PageHeader.PD_LOWER_OFFSET, (short) (24 + 3 * 4));
    b.putShort(PageHeader.PD_UPPER_OFFSET, (short) DEAD_TUPLE);
    return b;
  }

  /**
   * A page counted both ways at once gives, with its assumed tuples (here those of xmin 5: the
   * full chunk and the 60-byte tuple) dead, what a count that finds them dead gives: tuples,
   * bytes, item bytes and squares, TOAST chunks.
   */
  @Test
  void aPageCountedBothWaysIsTheCountOfEitherOutcome() {
    ByteBuffer b = toastLikePage();
    b.putInt(FULL_CHUNK + HeapTupleHeader.T_XMIN_OFFSET, 5);
    b.putInt(DEAD_TUPLE + HeapTupleHeader.T_XMIN_OFFSET, 5);
    PageRules rules = new PageRules(false, FreeSpaceRule.ROOM_FOR_A_TUPLE);
    HeapPage.BothWays both = new HeapPage(rules, (xmin, xmax, infomask, xvac) -> true, true)
        .countBothWays(b.array(), 0, (xmin, xmax, infomask, xvac) -> xmin == 5);
    assertEquals(new HeapPage(rules, (xmin, xmax, infomask, xvac) -> true, true).count(b.array(), 0), both.assumedLive());
    HeapPageStats dead = new HeapPage(rules, (xmin, xmax, infomask, xvac) -> xmin != 5, true).count(b.array(), 0);
    assertEquals(dead, both.assumedDead());
    assertEquals(1, dead.tupleCount());
    assertEquals(new ToastChunks(0, 0, 1, 0), dead.liveToastChunks());
  }

  @Test
  void liveTuplesAreCountedAsTheItemsARewriteWouldPack() {
    // the TOAST-like page, its 60-byte tuple dead: a rewrite drops it
    ByteBuffer b = toastLikePage();
    int full = FULL_CHUNK;
    int dead = DEAD_TUPLE;
    TupleVisibility livesUnlessDeleted = (xmin, xmax, infomask, xvac) -> xmax == 0;
    HeapPage livesUnlessAtDead = new HeapPage(new PageRules(false, FreeSpaceRule.ROOM_FOR_A_TUPLE), livesUnlessDeleted, true);
    b.putInt(dead + HeapTupleHeader.T_XMAX_OFFSET, 77);
    HeapPageStats stats = livesUnlessAtDead.count(b.array(), 0);
    assertNull(stats.problem());
    assertEquals(2, stats.tupleCount());
    assertEquals((2032 + 4) + (104 + 4), stats.liveItemBytes());
    assertEquals(Math.round((2036.0 * 2036 + 108.0 * 108) / PageHeader.BLCKSZ), stats.liveItemSquares());
    assertEquals(new ToastChunks(1, 0, 1, 0), stats.liveToastChunks());
    // a page of any other relation is not read as chunks
    assertEquals(ToastChunks.NONE,
        new HeapPage(new PageRules(false, FreeSpaceRule.ROOM_FOR_A_TUPLE), livesUnlessDeleted).count(b.array(), 0).liveToastChunks());
    // nor a tuple of other than a chunk's three attributes, even where chunks are counted
    b.putShort(full + HeapTupleHeader.T_INFOMASK2_OFFSET, (short) 4);
    assertEquals(new ToastChunks(0, 0, 1, 0), livesUnlessAtDead.count(b.array(), 0).liveToastChunks());
  }

  @Test
  void rejectsPageWithLowerAboveUpper() {
    ByteBuffer b = emptyPage();
    b.putShort(PageHeader.PD_LOWER_OFFSET, (short) 8000);
    b.putShort(PageHeader.PD_UPPER_OFFSET, (short) 7000);
    assertEquals("pd_lower 8000 > pd_upper 7000", ALL_LIVE.count(b.array(), 3).problem().reason());
  }

  @Test
  void rejectsUnknownFlagBitsAndUnalignedSpecial() {
    ByteBuffer b = emptyPage();
    b.putShort(PageHeader.PD_FLAGS_OFFSET, (short) 0x0010);
    assertTrue(ALL_LIVE.count(b.array(), 0).problem().reason().startsWith("pd_flags 0x0010"));
    b = emptyPage();
    b.putShort(PageHeader.PD_SPECIAL_OFFSET, (short) 8188);
    b.putShort(PageHeader.PD_UPPER_OFFSET, (short) 8000);
    assertEquals("pd_special 8188 is not MAXALIGNed", ALL_LIVE.count(b.array(), 0).problem().reason());
  }

  @Test
  void rejectsItemBeyondThePage() {
    ByteBuffer b = emptyPage();
    b.putShort(PageHeader.PD_LOWER_OFFSET, (short) 28);
    b.putShort(PageHeader.PD_UPPER_OFFSET, (short) 8160);
    setItem(b, 1, 8160, ItemId.LP_NORMAL, 64);
    assertEquals("item 1 at offset 8160 length 64 extends beyond the tuple area (ends at 8192)",
        ALL_LIVE.count(b.array(), 0).problem().reason());
  }

  /**
   * PageGetHeapFreeSpace: with MaxHeapTuplesPerPage (291) line pointers, the free bytes count
   * only if PD_HAS_FREE_LINES is set and an unused line pointer really exists.
   */
  @Test
  void fullLinePointerArrayHidesFreeSpaceUnlessOneIsReusable() {
    ByteBuffer b = emptyPage();
    int lower = 24 + HeapPage.MAX_HEAP_TUPLES_PER_PAGE * 4;
    b.putShort(PageHeader.PD_LOWER_OFFSET, (short) lower);
    b.putShort(PageHeader.PD_UPPER_OFFSET, (short) (lower + 500));
    for (int off = 1; off <= HeapPage.MAX_HEAP_TUPLES_PER_PAGE; off++) {
      setItem(b, off, 0, ItemId.LP_DEAD, 0);
    }
    assertEquals(0, ALL_LIVE.count(b.array(), 0).freeSpace(), "no hint: no free space");

    b.putShort(PageHeader.PD_FLAGS_OFFSET, (short) PageHeader.PD_HAS_FREE_LINES);
    assertEquals(0, ALL_LIVE.count(b.array(), 0).freeSpace(), "a wrong hint: still none");

    setItem(b, 100, 0, ItemId.LP_UNUSED, 0);
    HeapPageStats stats = ALL_LIVE.count(b.array(), 0);
    assertEquals(496, stats.freeSpace(), "hint confirmed: the gap less one line pointer");
    assertEquals(1, stats.lpUnused());
    assertEquals(290, stats.lpDead());
  }

  @Test
  void countsLiveAndDeadByVisibility() {
    ByteBuffer b = emptyPage();
    b.putShort(PageHeader.PD_LOWER_OFFSET, (short) 32);
    b.putShort(PageHeader.PD_UPPER_OFFSET, (short) 8064);
    setItem(b, 1, 8128, ItemId.LP_NORMAL, 64);
    setItem(b, 2, 8064, ItemId.LP_NORMAL, 60);
    b.put(8128 + HeapTupleHeader.T_HOFF_OFFSET, (byte) 24);
    b.put(8064 + HeapTupleHeader.T_HOFF_OFFSET, (byte) 24);
    b.putInt(8064 + HeapTupleHeader.T_XMAX_OFFSET, 77);
    HeapPage deadIfDeleted = new HeapPage(new PageRules(false, FreeSpaceRule.ROOM_FOR_A_TUPLE), (xmin, xmax, infomask, xvac) -> xmax == 0);
    HeapPageStats stats = deadIfDeleted.count(b.array(), 0);
    assertEquals(1, stats.tupleCount());
    assertEquals(64, stats.tupleLen());
    assertEquals(1, stats.deadTupleCount());
    assertEquals(60, stats.deadTupleLen());
    assertEquals(8064 - 32 - 4, stats.freeSpace());
  }

  /** A tuple of 32 bytes (header only) at {@code at}: xmin, xmax, t_ctid (block, item) and t_infomask2's flags. */
  private static void putTuple(ByteBuffer b, int at, int xmin, int xmax, int ctidBlock, int ctidItem, int flags) {
    b.putInt(at + HeapTupleHeader.T_XMIN_OFFSET, xmin);
    b.putInt(at + HeapTupleHeader.T_XMAX_OFFSET, xmax);
    b.putShort(at + HeapTupleHeader.T_CTID_OFFSET, (short) (ctidBlock >>> 16));
    b.putShort(at + HeapTupleHeader.T_CTID_OFFSET + 2, (short) ctidBlock);
    b.putShort(at + HeapTupleHeader.T_CTID_OFFSET + 4, (short) ctidItem);
    b.putShort(at + HeapTupleHeader.T_INFOMASK2_OFFSET, (short) flags);
    b.put(at + HeapTupleHeader.T_HOFF_OFFSET, (byte) 24);
  }

  /**
   * The dead roots an index entry points to, by how their HOT chain ends: a root whose
   * heap-only version lives is no entry a build leaves out; one whose last version was deleted
   * is a row gone; one updated off the page is a version updated away.
   */
  @Test
  void deadRootsAreCountedByTheEndOfTheirHotChain() {
    ByteBuffer b = emptyPage();
    int hot = HeapTupleHeader.HEAP_HOT_UPDATED;
    int heapOnly = HeapTupleHeader.HEAP_ONLY_TUPLE;
    int[][] tuples = { // xmin, xmax, ctid block, ctid item, flags
        {10, 11, 0, 2, hot}, {11, 0, 0, 2, heapOnly}, // root 1: its heap-only version lives
        {10, 12, 0, 4, hot}, {12, 13, 0, 4, heapOnly}, // root 3: its version was deleted
        {10, 14, 1, 1, 0}}; // root 5: updated to another page
    int upper = PageHeader.BLCKSZ;
    for (int i = 0; i < tuples.length; i++) {
      upper -= 32;
      int[] t = tuples[i];
      putTuple(b, upper, t[0], t[1], t[2], t[3], t[4]);
      setItem(b, i + 1, upper, ItemId.LP_NORMAL, 32);
    }
    b.putShort(PageHeader.PD_LOWER_OFFSET, (short) (24 + tuples.length * 4));
    b.putShort(PageHeader.PD_UPPER_OFFSET, (short) upper);
    HeapPage page = new HeapPage(new PageRules(false, FreeSpaceRule.ROOM_FOR_A_TUPLE),
        (xmin, xmax, infomask, xvac) -> xmax == 0);
    HeapPageStats stats = page.count(b.array(), 0);
    assertNull(stats.problem());
    assertEquals(1, stats.tupleCount());
    assertEquals(2, stats.deadRoots());
    assertEquals(1, stats.deletedRoots());
  }
}
