package io.pgbloat.xact;

/**
 * What differs between versions in the WAL this tool reads: the page magic
 * (XLOG_PAGE_MAGIC, {@code src/include/access/xlog_internal.h}), which changes with every
 * release that changes any record, and the size of a dropped-statistics item in commit and
 * abort records (xl_xact_stats_item, {@code src/include/access/xact.h}; none before 15).
 * Record and page headers are the same in 13-18 ({@code xlogrecord.h}, {@code xlog_internal.h}).
 *
 * @param pageMagic xlp_magic of every page of this version's WAL
 * @param statsItemSize sizeof(xl_xact_stats_item): int kind, Oid dboid, then the object id
 *     (Oid in 15-17; a 64-bit id as two uint32 in 18); 0 where records have no such part
 */
public record WalFormat(int pageMagic, int statsItemSize) {
  public static final WalFormat PG13 = new WalFormat(0xD106, 0);
  public static final WalFormat PG14 = new WalFormat(0xD10D, 0);
  public static final WalFormat PG15 = new WalFormat(0xD110, 12);
  public static final WalFormat PG16 = new WalFormat(0xD113, 12);
  public static final WalFormat PG17 = new WalFormat(0xD116, 12);
  public static final WalFormat PG18 = new WalFormat(0xD118, 16);
}
