package io.pgbloat.page;

/**
 * What one heap page contributes to the pgstattuple figures, plus its line pointers by kind.
 * A bad page carries its {@link PageProblem} and zeros elsewhere; a new (all-zero) page
 * carries zeros and {@code isNew}.
 *
 * @param tupleCount live LP_NORMAL tuples
 * @param tupleLen sum of their lp_len
 * @param deadTupleCount dead LP_NORMAL tuples
 * @param deadTupleLen sum of their lp_len
 * @param freeSpace PageGetHeapFreeSpace of the page
 * @param liveItemBytes what the live tuples would take on a page a rewrite writes: per tuple
 *     MAXALIGN of its length once formed again ({@link TableColumns}; lp_len where the table's
 *     columns are not known) (PageAddItem's alignedSize, {@code src/backend/storage/page/bufpage.c})
 *     plus one line pointer (sizeof(ItemIdData)); see {@link #itemBytes}
 * @param liveItemSquares Σ of the squares of those sizes over the live tuples, in
 *     units of BLCKSZ bytes² rounded to the nearest: a page's value stays below BLCKSZ like
 *     every other per-page figure, so the sums of its squares cannot overflow
 * @param liveToastChunks the live tuples counted as TOAST chunks (meaningful in a TOAST table only)
 * @param lpUnused LP_UNUSED line pointers
 * @param lpNormal LP_NORMAL line pointers
 * @param lpRedirect LP_REDIRECT line pointers
 * @param lpDead LP_DEAD line pointers
 * @param heapOnly LP_NORMAL tuples marked HEAP_ONLY_TUPLE: later versions of a HOT chain, which
 *     no index entry points to (the chain's root does)
 * @param deadRoots dead LP_NORMAL tuples not heap-only with no live version on their HOT
 *     chain: the index entries pointing at them are those a build leaves out
 * @param deletedRoots those of them whose chain ends deleted rather than updated off it (its
 *     last version's t_ctid at itself, {@link HeapTupleHeader#ctidIsSelfOrMoved})
 * @param isNew the page is new (all zero): counted with zeros, as PostgreSQL does
 * @param allVisible PD_ALL_VISIBLE is set in the page header
 * @param withoutOutcome LP_NORMAL tuples decided on a transaction the copy holds no outcome
 *     for (taken as still running; see {@code TransactionStatus#isInProgress})
 * @param problem why the page is bad, or null when it is good
 */
public record HeapPageStats(
    int tupleCount,
    int tupleLen,
    int deadTupleCount,
    int deadTupleLen,
    int freeSpace,
    int liveItemBytes,
    int liveItemSquares,
    ToastChunks liveToastChunks,
    int lpUnused,
    int lpNormal,
    int lpRedirect,
    int lpDead,
    int heapOnly,
    int deadRoots,
    int deletedRoots,
    boolean isNew,
    boolean allVisible,
    int withoutOutcome,
    PageProblem problem) {

  /** The stats of a new (all-zero) page: every figure zero. */
  public static HeapPageStats newPage() {
    return new HeapPageStats(0, 0, 0, 0, 0, 0, 0, ToastChunks.NONE, 0, 0, 0, 0, 0, 0, 0, true, false, 0, null);
  }

  /** The stats of a bad page: nothing counted but the problem. */
  public static HeapPageStats bad(PageProblem problem) {
    return new HeapPageStats(0, 0, 0, 0, 0, 0, 0, ToastChunks.NONE, 0, 0, 0, 0, 0, 0, 0, false, false, 0, problem);
  }

  /**
   * The bytes one tuple of length {@code lpLen} takes on a page that a table rewrite fills:
   * raw_heap_insert ({@code src/backend/access/heap/rewriteheap.c}) weighs MAXALIGN(t_len)
   * against PageGetHeapFreeSpace, which keeps sizeof(ItemIdData) back for the line pointer.
   */
  public static int itemBytes(int lpLen) {
    return PageHeader.maxAlign(lpLen) + ItemId.SIZE_OF_ITEM_ID_DATA;
  }

  /** Σ s² in units of BLCKSZ bytes², rounded to the nearest unit: see {@code liveItemSquares}. */
  public static int squaresInBlockUnits(long sumOfSquares) {
    return (int) ((sumOfSquares + PageHeader.BLCKSZ / 2) / PageHeader.BLCKSZ);
  }

  /** These stats with the page's free space {@code free}: the same page measured by another version's rule. */
  public HeapPageStats withFreeSpace(int free) {
    return new HeapPageStats(tupleCount, tupleLen, deadTupleCount, deadTupleLen, free, liveItemBytes, liveItemSquares,
        liveToastChunks, lpUnused, lpNormal, lpRedirect, lpDead, heapOnly, deadRoots,
        deletedRoots, isNew, allVisible, withoutOutcome, problem);
  }

  /**
   * These stats with {@code tuples} of the live tuples, of {@code bytes} lp_len and
   * {@code itemBytes} in all, counted dead instead: the same page as another outcome of their
   * transaction leaves it; {@code itemSquares} and {@code toastChunks} are the live tuples' left,
   * {@code roots} of those tuples not heap-only, {@code deletedRootsAmong} of them deleted.
   */
  public HeapPageStats withLiveTuplesDead(int tuples, int bytes, int itemBytes, int itemSquares, ToastChunks toastChunks,
      int roots, int deletedRootsAmong) {
    return new HeapPageStats(tupleCount - tuples, tupleLen - bytes, deadTupleCount + tuples, deadTupleLen + bytes,
        freeSpace, liveItemBytes - itemBytes, itemSquares, toastChunks, lpUnused, lpNormal, lpRedirect, lpDead, heapOnly,
        deadRoots + roots, deletedRoots + deletedRootsAmong, isNew, allVisible, withoutOutcome, problem);
  }

  /**
   * The line pointers an index entry points to: each HOT chain's root (a redirect, or a tuple
   * not heap-only) and the dead stubs whose index entries VACUUM has yet to remove
   * ({@code src/backend/access/heap/README.HOT}).
   */
  public int indexedPointers() {
    return lpNormal - heapOnly + lpRedirect + lpDead;
  }

  public boolean isBad() {
    return problem != null;
  }
}
