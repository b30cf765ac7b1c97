package io.pgbloat.page;

/**
 * A counter of one index access method's pages that first holds every page to the checks all
 * index pages pass ({@link IndexPageCounter#precheck}: header and checksum, all zero, the
 * method's special space); only a page that passes them reaches {@link #countChecked}.
 */
abstract class CheckedIndexPage implements IndexPageCounter {
  private final PageVerifier verifier;
  private final FreeSpaceRule freeSpace;
  private final int specialSize;
  private final int pageId;
  private final String method;
  private final int newPageFree;

  /**
   * @param specialSize the method's special space, at the end of the page
   * @param pageId the method's page id in the page's last two bytes, or -1 for a method with none
   * @param method the method's name, for the reason a page is bad
   * @param newPageFree the free bytes of an all-zero page, as the method's pgstattuple function counts one
   */
  CheckedIndexPage(PageRules rules, int specialSize, int pageId, String method, int newPageFree) {
    this.verifier = rules.verifier();
    this.freeSpace = rules.freeSpace();
    this.specialSize = specialSize;
    this.pageId = pageId;
    this.method = method;
    this.newPageFree = newPageFree;
  }

  @Override
  public final IndexPageStats count(byte[] page, long block) {
    IndexPageStats checked = IndexPageCounter.precheck(verifier, page, block, specialSize, pageId, method, newPageFree);
    return checked != null ? checked : countChecked(page, block);
  }

  /** Counts {@code page}, found at {@code block}, which passed the checks. */
  abstract IndexPageStats countChecked(byte[] page, long block);

  /** How the cluster's version measures a page's free space. */
  final FreeSpaceRule freeSpace() {
    return freeSpace;
  }
}
