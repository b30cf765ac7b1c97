package io.pgbloat.page;

/**
 * What one btree page contributes to pgstatindex's figures. Every contribution is a count of
 * 0 or 1 or a byte count, so the figures of an index are sums over its pages (or estimates
 * of those sums from a sample of its pages).
 *
 * @param block block number within the index
 * @param kind what the page is
 * @param freeSpace PageGetFreeSpace of the page ({@code src/backend/storage/page/bufpage.c}):
 *     pd_upper - pd_lower less one line pointer, at least 0; 0 unless the page was decoded
 * @param maxAvail pgstatindex's max_avail: pd_special - SizeOfPageHeaderData; 0 unless decoded
 * @param fragment a leaf whose right sibling lies at a lower block number (leaf_fragmentation)
 * @param level btpo_level (the safexid's low half on deleted pages before PG 14)
 * @param flags btpo_flags
 * @param build on a leaf, the bytes its live entries take in a fresh build ({@link BtreeLeafEntries});
 *     null on every other page
 * @param problem why the page is bad, or null when it is good
 */
public record BtreePageStats(
    long block, BtreePageKind kind, int freeSpace, int maxAvail, boolean fragment, long level, int flags,
    BtreeLeafEntries.Bytes build, PageProblem problem) {

  /** The metapage, which adds nothing to the page counts. */
  public static BtreePageStats meta() {
    return new BtreePageStats(BtreePage.BTREE_METAPAGE, BtreePageKind.META, 0, 0, false, 0, BtreePage.BTP_META, null,
        null);
  }

  /** A new (all-zero) page: counted as internal, as pgstatindex (13-18) counts it. */
  public static BtreePageStats newPage(long block) {
    return new BtreePageStats(block, BtreePageKind.NEW, 0, 0, false, 0, 0, null, null);
  }

  /** A bad page: nothing counted but the problem. */
  public static BtreePageStats bad(PageProblem problem) {
    return new BtreePageStats(problem.block(), BtreePageKind.BAD, 0, 0, false, 0, 0, null, problem);
  }

  /**
   * The same page under another free-space rule, {@code free} its free space by that rule:
   * only the free space differs, and the build bytes of a leaf whose items could not be read,
   * which are its bytes in use. Pages not decoded (new, meta, bad) have none to change.
   */
  public BtreePageStats withFreeSpace(int free) {
    if (kind == BtreePageKind.META || kind == BtreePageKind.NEW || kind == BtreePageKind.BAD) {
      return this;
    }
    BtreeLeafEntries.Bytes underRule = build == null || build.decoded() ? build
        : BtreeLeafEntries.Bytes.undecoded(maxAvail - free);
    return new BtreePageStats(block, kind, free, maxAvail, fragment, level, flags, underRule, problem);
  }

  public boolean isBad() {
    return problem != null;
  }

  /** 1 for a page in leaf_pages. */
  public int leafPages() {
    return kind == BtreePageKind.LEAF ? 1 : 0;
  }

  /** 1 for a page in internal_pages: internal pages, and new pages as pgstatindex (13-18) counts them. */
  public int internalPages() {
    return kind == BtreePageKind.INTERNAL || kind == BtreePageKind.NEW ? 1 : 0;
  }

  /** 1 for a page in empty_pages, which pgstatindex fills with half-dead pages. */
  public int emptyPages() {
    return kind == BtreePageKind.HALF_DEAD ? 1 : 0;
  }

  /** 1 for a page in deleted_pages. */
  public int deletedPages() {
    return kind == BtreePageKind.DELETED ? 1 : 0;
  }

  /** The page's free space if it is a leaf (pgstatindex's free_space sums leaves only), else 0. */
  public int leafFreeSpace() {
    return kind == BtreePageKind.LEAF ? freeSpace : 0;
  }

  /** The page's max_avail if it is a leaf (pgstatindex's max_avail sums leaves only), else 0. */
  public int leafMaxAvail() {
    return kind == BtreePageKind.LEAF ? maxAvail : 0;
  }

  /** A leaf's live entries in a fresh build without deduplication, in bytes; 0 on other pages. */
  public int leafBuildBytes() {
    return build == null ? 0 : build.plain();
  }

  /** A leaf's live entries in a fresh build that deduplicates, in bytes; 0 on other pages. */
  public int leafDeduplicatedBuildBytes() {
    return build == null ? 0 : build.deduplicated();
  }

  /** 1 for a leaf whose entries could not be decoded (its build bytes are its bytes in use). */
  public int undecodedLeaves() {
    return build == null || build.decoded() ? 0 : 1;
  }

  /** A leaf's live entries' heap TIDs; 0 on other pages. */
  public int leafTids() {
    return build == null ? 0 : build.tids();
  }

  /** 1 for a leaf that counts in pgstatindex's fragments. */
  public int fragments() {
    return fragment ? 1 : 0;
  }
}
