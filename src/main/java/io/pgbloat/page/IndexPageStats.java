package io.pgbloat.page;

/**
 * What one page of a hash, GiST, GIN, SP-GiST or BRIN index holds, for the figures PostgreSQL's
 * own functions give (pgstattuple, pgstathashindex, pgstatginindex) and for those no function
 * gives (pages by kind, free bytes, tuple states). A bad page carries its problem and zeros.
 *
 * @param block its block number
 * @param kind what it is
 * @param liveItems items pgstattuple counts live on it (every line pointer but LP_DEAD, on the
 *     pages it reads); GIN, SP-GiST, BRIN: the index tuples in use
 * @param liveItemBytes their lp_len
 * @param deadItems LP_DEAD line pointers (pgstattuple's dead tuples); SP-GiST: dead tuples
 * @param deadItemBytes their lp_len
 * @param freeSpace free space as the version's pgstattuple counts this page (0 on pages it does
 *     not read)
 * @param gap pd_upper − pd_lower, as pageinspect's page_header() shows them (0 on new pages)
 * @param heapItems GIN: heap item pointers in the posting lists of a posting-tree leaf, or in
 *     a pending-list page's tuples; BRIN: summarized ranges in a revmap page; else 0
 * @param redirects SP-GiST: redirect tuples
 * @param placeholders SP-GiST: placeholder tuples
 * @param gin a GIN page's tuples as a build would write them again ({@link GinTuples}), or null
 * @param problem why the page is bad, or null
 */
public record IndexPageStats(long block, IndexPageKind kind, int liveItems, int liveItemBytes, int deadItems,
    int deadItemBytes, int freeSpace, int gap, int heapItems, int redirects, int placeholders, GinTuples gin,
    PageProblem problem) {

  static IndexPageStats of(long block, IndexPageKind kind, int gap) {
    return new IndexPageStats(block, kind, 0, 0, 0, 0, 0, gap, 0, 0, 0, null, null);
  }

  /** A bad page, or a block that could not be read: nothing counted but the problem. */
  public static IndexPageStats bad(long block, String reason) {
    return new IndexPageStats(block, IndexPageKind.BAD, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, new PageProblem(block, reason));
  }

  IndexPageStats withFreeSpace(int free) {
    return new IndexPageStats(block, kind, liveItems, liveItemBytes, deadItems, deadItemBytes, free, gap, heapItems,
        redirects, placeholders, gin, problem);
  }

  public boolean isBad() {
    return problem != null;
  }
}
