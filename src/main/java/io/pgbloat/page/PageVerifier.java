package io.pgbloat.page;

/**
 * The sanity rules a page must pass before PostgreSQL lets it into the buffer pool:
 * {@code PageIsVerifiedExtended} in {@code src/backend/storage/page/bufpage.c}, plus the page
 * size and layout version, which no valid page of PostgreSQL 13-18 can lack.
 */
public final class PageVerifier {
  private final boolean dataChecksums;
  private final PageChecksum checksum = new PageChecksum();

  /**
   * One verifier serves one thread (it reuses scratch space).
   *
   * @param dataChecksums whether the cluster has data checksums (pg_control)
   */
  public PageVerifier(boolean dataChecksums) {
    this.dataChecksums = dataChecksums;
  }

  /** Why a page whose pd_checksum is {@code actual} but whose checksum is {@code expected} is bad. */
  public static String checksumMismatch(int actual, int expected) {
    return "checksum mismatch: page has " + actual + ", computed " + expected;
  }

  /**
   * Checks one page.
   *
   * @param page {@link PageHeader#BLCKSZ} bytes
   * @param blockNumber block number within the relation (segment * RELSEG_SIZE + block),
   *     mixed into the checksum so that transposed pages are caught
   * @return null when the page may be read, else the reason it may not
   */
  public String check(byte[] page, long blockNumber) {
    if (PageHeader.isNew(page)) {
      // PostgreSQL accepts a new page only when every byte is zero.
      return PageHeader.isAllZero(page) ? null : "pd_upper is 0 but the page is not all zero";
    }
    if (dataChecksums) {
      int expected = checksum.of(page, blockNumber);
      int actual = PageHeader.checksum(page);
      if (expected != actual) {
        return checksumMismatch(actual, expected);
      }
    }
    int flags = PageHeader.flags(page);
    int lower = PageHeader.lower(page);
    int upper = PageHeader.upper(page);
    int special = PageHeader.special(page);
    if ((flags & ~PageHeader.PD_VALID_FLAG_BITS) != 0) {
      return String.format("pd_flags 0x%04x has bits outside 0x%04x", flags, PageHeader.PD_VALID_FLAG_BITS);
    }
    if (lower > upper) {
      return "pd_lower " + lower + " > pd_upper " + upper;
    }
    if (upper > special) {
      return "pd_upper " + upper + " > pd_special " + special;
    }
    if (special > PageHeader.BLCKSZ) {
      return "pd_special " + special + " > block size " + PageHeader.BLCKSZ;
    }
    if (special != PageHeader.maxAlign(special)) {
      return "pd_special " + special + " is not MAXALIGNed";
    }
    int sizeVersion = PageHeader.pageSizeVersion(page);
    int size = sizeVersion & 0xFF00;
    int version = sizeVersion & 0x00FF;
    if (size != PageHeader.BLCKSZ || version != PageHeader.PG_PAGE_LAYOUT_VERSION) {
      return "pd_pagesize_version says size " + size + " version " + version + ", expected "
          + PageHeader.BLCKSZ + " version " + PageHeader.PG_PAGE_LAYOUT_VERSION;
    }
    return null;
  }
}
