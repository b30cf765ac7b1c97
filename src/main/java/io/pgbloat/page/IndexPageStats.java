package io.pgbloat.page;

/**
 * What one page of an index holds, for the figures PostgreSQL's own functions give
 * (pgstatindex, pgstattuple, pgstathashindex, pgstatginindex) and for those no function gives
 * (pages by kind, free bytes, tuple states, what a fresh build writes again). A bad page
 * carries its problem and zeros.
 *
 * @param block its block number
 * @param kind what it is
 * @param liveItems items pgstattuple counts live on it (every line pointer but LP_DEAD, on the
 *     pages it reads); GIN, SP-GiST, BRIN: the index tuples in use; btree: 0
 * @param liveItemBytes their lp_len
 * @param deadItems LP_DEAD line pointers (pgstattuple's dead tuples); SP-GiST: dead tuples
 * @param deadItemBytes their lp_len
 * @param freeSpace free space as the version's pgstattuple or pgstatindex counts this page (0
 *     on pages it does not read: a btree's metapage and new pages, a hash bitmap page)
 * @param gap pd_upper − pd_lower, as pageinspect's page_header() shows them (0 on new pages)
 * @param heapItems GIN: heap item pointers in the posting lists of a posting-tree leaf, or in
 *     a pending-list page's tuples; BRIN: summarized ranges in a revmap page; btree: the heap
 *     TIDs of a leaf's live entries; else 0
 * @param redirects SP-GiST: redirect tuples
 * @param placeholders SP-GiST: placeholder tuples
 * @param fragment btree: a leaf whose right sibling lies at a lower block number
 *     (pgstatindex's leaf_fragmentation counts them)
 * @param build what a fresh build would write again of the page's entries (a GIN page's, a
 *     btree leaf's), or null
 * @param problem why the page is bad, or null
 */
public record IndexPageStats(long block, IndexPageKind kind, int liveItems, int liveItemBytes, int deadItems,
    int deadItemBytes, int freeSpace, int gap, int heapItems, int redirects, int placeholders, boolean fragment,
    BuildEntries build, PageProblem problem) {

  static IndexPageStats of(long block, IndexPageKind kind, int gap) {
    return new IndexPageStats(block, kind, 0, 0, 0, 0, 0, gap, 0, 0, 0, false, null, null);
  }

  /** A bad page, or a block that could not be read: nothing counted but the problem. */
  public static IndexPageStats bad(long block, String reason) {
    return new IndexPageStats(block, IndexPageKind.BAD, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, null,
        new PageProblem(block, reason));
  }

  IndexPageStats withFreeSpace(int free) {
    return withFreeSpace(free, build);
  }

  /** The same page with {@code free} bytes free and {@code entries} to build again. */
  IndexPageStats withFreeSpace(int free, BuildEntries entries) {
    return new IndexPageStats(block, kind, liveItems, liveItemBytes, deadItems, deadItemBytes, free, gap, heapItems,
        redirects, placeholders, fragment, entries, problem);
  }

  public boolean isBad() {
    return problem != null;
  }
}
