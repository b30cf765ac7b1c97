package io.pgbloat.catalog;

import io.pgbloat.error.DataDirectoryException;
import io.pgbloat.error.UnsupportedClusterException;
import io.pgbloat.page.LittleEndian;
import java.util.zip.CRC32C;

/**
 * {@code global/pg_control}: ControlFileData ({@code src/include/catalog/pg_control.h}), as
 * laid out on x86-64 and aarch64. Only the fields this tool needs are named; they lie at the
 * same offsets in 13-18 (17 puts the checkpoint's wal_level in former padding). 18 adds
 * {@code bool default_char_signedness} after data_checksum_version, which moves the CRC:
 * {@link Format} holds what differs. The pg_control_version is checked first, the CRC-32C
 * over everything before {@code crc} next, so a damaged file is never half-believed.
 *
 * @param systemIdentifier system_identifier: set by initdb, the same in every copy and standby
 *     of the cluster, and in its WAL's segment headers
 * @param catalogVersion catalog_version_no, part of tablespace paths (PG_&lt;major&gt;_&lt;catversion&gt;)
 * @param state DBState: 1 shut down, 2 shut down in recovery, 6 in production, ...
 * @param checkpoint checkPoint: where the last checkpoint (or restartpoint) record is
 * @param checkpointRedo checkpoint redo: where recovery from it would start reading WAL
 * @param timeline the checkpoint's ThisTimeLineID: the timeline the cluster was on
 * @param minRecoveryPoint minRecoveryPoint: on a standby, how far its data files may hold
 *     replayed changes
 * @param nextXid checkpoint nextXid (low 32 bits of the FullTransactionId)
 * @param nextMulti checkpoint nextMulti
 * @param nextMultiOffset checkpoint nextMultiOffset
 * @param oldestActiveXid checkpoint oldestActiveXid (0 after a shutdown checkpoint)
 * @param blockSize blcksz
 * @param segmentBlocks relseg_size: blocks per segment file
 * @param dataChecksumVersion data_checksum_version: 0 off, 1 on
 */
public record ControlFile(
    long systemIdentifier,
    long catalogVersion,
    int state,
    long checkpoint,
    long checkpointRedo,
    long timeline,
    long minRecoveryPoint,
    int nextXid,
    int nextMulti,
    int nextMultiOffset,
    int oldestActiveXid,
    int blockSize,
    int segmentBlocks,
    int dataChecksumVersion) {

  /**
   * What differs between versions' ControlFileData.
   *
   * @param pgControlVersion PG_CONTROL_VERSION
   * @param crcOffset where {@code pg_crc32c crc} lies: after mock_authentication_nonce[32]
   */
  record Format(int pgControlVersion, int crcOffset) {
    /** PostgreSQL 13-16. */
    static final Format PG13 = new Format(1300, 288);
    /** PostgreSQL 17: the checkpoint's wal_level fills former padding, nothing moves. */
    static final Format PG17 = new Format(1700, 288);
    /** PostgreSQL 18: default_char_signedness at 256 pushes the nonce to 257 and the CRC to 292. */
    static final Format PG18 = new Format(1800, 292);
  }
  /** FLOATFORMAT_VALUE: a double every writer stores, to catch a foreign float format. */
  static final double FLOATFORMAT_VALUE = 1234567.0;

  static final int SYSTEM_IDENTIFIER_OFFSET = 0;       // uint64 system_identifier
  static final int PG_CONTROL_VERSION_OFFSET = 8;      // uint32 pg_control_version
  static final int CATALOG_VERSION_NO_OFFSET = 12;     // uint32 catalog_version_no
  static final int STATE_OFFSET = 16;                  // DBState state (int enum)
  static final int CHECKPOINT_OFFSET = 32;             // XLogRecPtr checkPoint
  static final int CHECKPOINT_COPY_OFFSET = 40;        // CheckPoint checkPointCopy (88 bytes)
  // fields of CheckPoint, relative to checkPointCopy
  static final int CKPT_REDO_OFFSET = 0;               // XLogRecPtr redo
  static final int CKPT_TIMELINE_OFFSET = 8;           // TimeLineID ThisTimeLineID
  static final int CKPT_NEXT_XID_OFFSET = 24;          // FullTransactionId nextXid (uint64)
  static final int CKPT_NEXT_MULTI_OFFSET = 36;        // MultiXactId nextMulti
  static final int CKPT_NEXT_MULTI_OFFSET_OFFSET = 40;  // MultiXactOffset nextMultiOffset
  static final int CKPT_OLDEST_ACTIVE_XID_OFFSET = 80; // TransactionId oldestActiveXid
  static final int MIN_RECOVERY_POINT_OFFSET = 136;    // XLogRecPtr minRecoveryPoint
  static final int FLOAT_FORMAT_OFFSET = 208;          // double floatFormat
  static final int BLCKSZ_OFFSET = 216;                // uint32 blcksz
  static final int RELSEG_SIZE_OFFSET = 220;           // uint32 relseg_size
  static final int DATA_CHECKSUM_VERSION_OFFSET = 252; // uint32 data_checksum_version
  /* ... then Format.crcOffset: pg_crc32c crc, covering the bytes before it; the file is padded
     to PG_CONTROL_FILE_SIZE (8192) */

  public static final int DB_SHUTDOWNED = 1;
  public static final int DB_SHUTDOWNED_IN_RECOVERY = 2;
  static final int DB_IN_ARCHIVE_RECOVERY = 5;

  /**
   * Parses {@code bytes}, the contents of global/pg_control, in the format of the major
   * version {@code PG_VERSION} names.
   *
   * @param major that major version, for messages
   */
  static ControlFile parse(byte[] bytes, Format format, int major) {
    int crcOffset = format.crcOffset();
    if (bytes.length < crcOffset + 4) {
      throw new DataDirectoryException("Cannot read global/pg_control: it is " + bytes.length
          + " bytes, expected at least " + (crcOffset + 4) + "; the data directory is damaged");
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, crcOffset);
    long stored = LittleEndian.uint32(bytes, crcOffset);
    int version = LittleEndian.int32(bytes, PG_CONTROL_VERSION_OFFSET);
    if (version != format.pgControlVersion()) {
      throw new UnsupportedClusterException("Cannot read global/pg_control: pg_control_version is "
          + version + " where PostgreSQL " + major + " (as PG_VERSION says) writes " + format.pgControlVersion()
          + "; PG_VERSION and pg_control disagree, so this is not a data directory of one version");
    }
    if (crc.getValue() != stored) {
      throw new DataDirectoryException(String.format(
          "Cannot read global/pg_control: CRC mismatch (stored %08x, computed %08x); the control file is damaged",
          stored, crc.getValue()));
    }
    double floatFormat = Double.longBitsToDouble(LittleEndian.int64(bytes, FLOAT_FORMAT_OFFSET));
    if (floatFormat != FLOATFORMAT_VALUE) {
      throw new UnsupportedClusterException(
          "Cannot read global/pg_control: written by a machine of another byte order or float format");
    }
    int c = CHECKPOINT_COPY_OFFSET;
    return new ControlFile(
        LittleEndian.int64(bytes, SYSTEM_IDENTIFIER_OFFSET),
        LittleEndian.uint32(bytes, CATALOG_VERSION_NO_OFFSET),
        LittleEndian.int32(bytes, STATE_OFFSET),
        LittleEndian.int64(bytes, CHECKPOINT_OFFSET),
        LittleEndian.int64(bytes, c + CKPT_REDO_OFFSET),
        LittleEndian.uint32(bytes, c + CKPT_TIMELINE_OFFSET),
        LittleEndian.int64(bytes, MIN_RECOVERY_POINT_OFFSET),
        (int) LittleEndian.int64(bytes, c + CKPT_NEXT_XID_OFFSET),
        LittleEndian.int32(bytes, c + CKPT_NEXT_MULTI_OFFSET),
        LittleEndian.int32(bytes, c + CKPT_NEXT_MULTI_OFFSET_OFFSET),
        LittleEndian.int32(bytes, c + CKPT_OLDEST_ACTIVE_XID_OFFSET),
        LittleEndian.int32(bytes, BLCKSZ_OFFSET),
        LittleEndian.int32(bytes, RELSEG_SIZE_OFFSET),
        LittleEndian.int32(bytes, DATA_CHECKSUM_VERSION_OFFSET));
  }

  public boolean dataChecksums() {
    return dataChecksumVersion != 0;
  }

  /**
   * The most a checkpoint record spans in WAL: SizeOfXLogRecord (24) + the short data header
   * (2) + sizeof(CheckPoint) (88), MAXALIGNed to 120, plus a page header should it cross a
   * page: SizeOfXLogLongPHD (40) on the first page of a segment ({@code xlog_internal.h}).
   */
  static final long CHECKPOINT_RECORD_SPAN = 120 + 40;

  /**
   * Whether this is a standby stopped with replayed changes its files may not hold: its
   * shutdown makes a restartpoint (writing every buffer) only at a checkpoint record replayed
   * since the last one, and otherwise just moves minRecoveryPoint to where replay ended
   * ({@code CreateRestartPoint}, {@code src/backend/access/transam/xlog.c}). A minimum
   * recovery point past the last restartpoint's record says replay went on after it.
   */
  public boolean standbyMayLackReplayedChanges() {
    return state == DB_SHUTDOWNED_IN_RECOVERY
        && Long.compareUnsigned(minRecoveryPoint, checkpoint + CHECKPOINT_RECORD_SPAN) > 0;
  }

  /**
   * Whether this is a standby's or a recovering server's copy, whose files may hold replayed
   * changes up to {@link #minRecoveryPoint} ({@code XLogFlush} in recovery moves it before a
   * page is written).
   */
  public boolean inRecovery() {
    return state == DB_SHUTDOWNED_IN_RECOVERY || state == DB_IN_ARCHIVE_RECOVERY;
  }

  /** Whether the cluster was stopped cleanly (or is a standby stopped cleanly). */
  public boolean cleanlyShutDown() {
    return state == DB_SHUTDOWNED || state == DB_SHUTDOWNED_IN_RECOVERY;
  }

  /** The state as pg_controldata words it. */
  public String stateName() {
    return switch (state) {
      case 0 -> "starting up";
      case DB_SHUTDOWNED -> "shut down";
      case DB_SHUTDOWNED_IN_RECOVERY -> "shut down in recovery";
      case 3 -> "shutting down";
      case 4 -> "in crash recovery";
      case DB_IN_ARCHIVE_RECOVERY -> "in archive recovery";
      case 6 -> "in production";
      default -> "unrecognized status code " + state;
    };
  }
}
