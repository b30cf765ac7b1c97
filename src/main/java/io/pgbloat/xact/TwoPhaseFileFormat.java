package io.pgbloat.xact;

/**
 * The layout of a two-phase state file in {@code pg_twophase}
 * ({@code src/backend/access/transam/twophase.c}: {@code TwoPhaseFilePath},
 * {@code TwoPhaseFileHeader}). The file starts with the header; after it, MAXALIGNed, come the
 * GID and the subtransaction xids.
 *
 * <pre>
 * TwoPhaseFileHeader, x86-64 offsets    13-14   15-18
 *   uint32        magic                     0       0
 *   uint32        total_len                 4       4
 *   TransactionId xid                       8       8
 *   Oid           database                 12      12
 *   TimestampTz   prepared_at              16      16
 *   Oid           owner                    24      24
 *   int32         nsubxacts                28      28
 *   int32         ncommitrels, nabortrels  32, 36  32, 36
 *   int32         ncommitstats, nabortstats  -     40, 44   (added in 15)
 *   int32         ninvalmsgs               40      48
 *   bool          initfileinval            44      52
 *   uint16        gidlen                   46      54
 *   XLogRecPtr    origin_lsn               48      56
 *   TimestampTz   origin_timestamp         56      64
 *   MAXALIGN(sizeof)                       64      72
 * </pre>
 *
 * @param nameDigits hex digits of a state file's name: the xid (8), or from 17 the epoch and
 *     the xid of its FullTransactionId (16)
 * @param gidlenOffset where gidlen lies
 * @param headerSize MAXALIGN(sizeof(TwoPhaseFileHeader))
 */
public record TwoPhaseFileFormat(int nameDigits, int gidlenOffset, int headerSize) {
  /** PostgreSQL 13 and 14. */
  public static final TwoPhaseFileFormat PG13 = new TwoPhaseFileFormat(8, 46, 64);
  /** PostgreSQL 15 and 16: the header gains ncommitstats and nabortstats. */
  public static final TwoPhaseFileFormat PG15 = new TwoPhaseFileFormat(8, 54, 72);
  /** PostgreSQL 17 and 18: files are named by FullTransactionId. */
  public static final TwoPhaseFileFormat PG17 = new TwoPhaseFileFormat(16, 54, 72);

  /** TWOPHASE_MAGIC: format identifier of the state file (the same 13-18). */
  static final int TWOPHASE_MAGIC = 0x57F94534;
  static final int MAGIC_OFFSET = 0;
  static final int XID_OFFSET = 8;
  static final int NSUBXACTS_OFFSET = 28;

  /** Whether {@code name} is a state file's name in this format. */
  boolean isStateFile(String name) {
    if (name.length() != nameDigits) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'A' && c <= 'F')) {
        return false;
      }
    }
    return true;
  }

  /** The xid a state file's name gives: the low 32 bits of a FullTransactionId. */
  int xidOf(String name) {
    return (int) Long.parseUnsignedLong(name, 16);
  }
}
