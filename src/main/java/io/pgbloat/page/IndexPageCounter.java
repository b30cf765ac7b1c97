package io.pgbloat.page;

/**
 * Counts one page of an index of one access method: {@link BtreePage}, {@link HashPage},
 * {@link GistPage}, {@link GinPage}, {@link SpGistPage}, {@link BrinPage}. Never throws for what
 * a page holds: a page that fails its checks comes back {@link IndexPageKind#BAD} with the
 * reason.
 */
public interface IndexPageCounter {
  /** Counts {@code page}, found at {@code block} of its index. */
  IndexPageStats count(byte[] page, long block);

  /**
   * Counts {@code page} (at {@code block}), which a counter of the same method under another
   * free-space rule counted as {@code counted}: afresh, unless the method can derive it.
   */
  default IndexPageStats recount(IndexPageStats counted, byte[] page, long block) {
    return count(page, block);
  }

  /**
   * What pgstattuple counts on an index page it reads ({@code pgstat_index_page},
   * {@code contrib/pgstattuple/pgstattuple.c}): every line pointer from {@code first} to the
   * last, an LP_DEAD one as a dead tuple and any other as a live one, of lp_len bytes; the
   * free space by the version's rule.
   */
  static IndexPageStats pgstattupleItems(byte[] page, long block, IndexPageKind kind, int first, FreeSpaceRule rule) {
    int live = 0, liveBytes = 0, dead = 0, deadBytes = 0;
    int maxOffset = PageHeader.maxOffsetNumber(page);
    for (int off = first; off <= maxOffset; off++) {
      int word = ItemId.word(page, off);
      if (ItemId.flags(word) == ItemId.LP_DEAD) {
        dead++;
        deadBytes += ItemId.length(word);
      } else {
        live++;
        liveBytes += ItemId.length(word);
      }
    }
    return new IndexPageStats(block, kind, live, liveBytes, dead, deadBytes, rule.indexPage(page), gap(page), 0, 0, 0, false,
        null, null);
  }

  /**
   * The checks every index page passes before it is counted: the header and checksum
   * ({@link PageVerifier}), all zero (a new page, counted with {@code newPageFree} free bytes, as
   * the method's pgstattuple function counts one), and the method's special space. Null when the
   * page is to be counted, else its stats.
   *
   * @param pageId the method's page id in the page's last two bytes, or -1 for a method with none
   */
  static IndexPageStats precheck(PageVerifier verifier, byte[] page, long block, int specialSize, int pageId,
      String method, int newPageFree) {
    String insane = verifier.check(page, block);
    if (insane != null) {
      return IndexPageStats.bad(block, insane);
    }
    if (PageHeader.isNew(page)) {
      return IndexPageStats.of(block, IndexPageKind.NEW, 0).withFreeSpace(newPageFree);
    }
    String wrong = specialProblem(page, specialSize, pageId, method);
    return wrong == null ? null : IndexPageStats.bad(block, wrong);
  }

  /** pd_upper − pd_lower, as page_header() shows them. */
  static int gap(byte[] page) {
    return FreeSpaceRule.exact(page);
  }

  /**
   * Null when the page's special space is {@code size} bytes at the end of the page (and its
   * last two bytes, when {@code pageId} is not negative, hold that page id), else why not.
   */
  static String specialProblem(byte[] page, int size, int pageId, String method) {
    int special = PageHeader.special(page);
    if (special != PageHeader.BLCKSZ - size) {
      return "pd_special " + special + ", expected " + (PageHeader.BLCKSZ - size) + " on a " + method + " page";
    }
    if (pageId >= 0 && LittleEndian.uint16(page, PageHeader.BLCKSZ - 2) != pageId) {
      return String.format("page id 0x%04x, expected 0x%04x on a %s page", LittleEndian.uint16(page, PageHeader.BLCKSZ - 2),
          pageId, method);
    }
    return null;
  }
}
