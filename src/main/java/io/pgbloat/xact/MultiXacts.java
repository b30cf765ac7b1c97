package io.pgbloat.xact;

import io.pgbloat.error.CommitStatusUnavailableException;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.page.LittleEndian;

/**
 * Finds the updating member of a MultiXactId in {@code pg_multixact}, laid out as
 * {@code src/backend/access/transam/multixact.c} writes it:
 *
 * <ul>
 *   <li>{@code offsets/}: one uint32 MultiXactOffset per multixact, the start of its members;
 *       the next multixact's offset (or, for the newest, the control file's nextMultiOffset)
 *       ends them.
 *   <li>{@code members/}: groups of {@link #MULTIXACT_MEMBERS_PER_MEMBERGROUP} members, each
 *       group four flag bytes (one MultiXactStatus per member) then four TransactionIds;
 *       {@link #MULTIXACT_MEMBERGROUPS_PER_PAGE} groups per page, the page's tail unused.
 * </ul>
 */
final class MultiXacts {
  /** MULTIXACT_OFFSETS_PER_PAGE: BLCKSZ / sizeof(MultiXactOffset). */
  static final int MULTIXACT_OFFSETS_PER_PAGE = SlruFiles.SLRU_PAGE_SIZE / Integer.BYTES;
  /** MULTIXACT_FLAGBYTES_PER_GROUP. */
  static final int MULTIXACT_FLAGBYTES_PER_GROUP = 4;
  /** MXACT_MEMBER_BITS_PER_XACT: one flag byte per member. */
  static final int MXACT_MEMBER_BITS_PER_XACT = 8;
  /** MULTIXACT_MEMBERS_PER_MEMBERGROUP. */
  static final int MULTIXACT_MEMBERS_PER_MEMBERGROUP = MULTIXACT_FLAGBYTES_PER_GROUP;
  /** MULTIXACT_MEMBERGROUP_SIZE: 4 TransactionIds plus 4 flag bytes = 20. */
  static final int MULTIXACT_MEMBERGROUP_SIZE =
      Integer.BYTES * MULTIXACT_MEMBERS_PER_MEMBERGROUP + MULTIXACT_FLAGBYTES_PER_GROUP;
  /** MULTIXACT_MEMBERGROUPS_PER_PAGE: 409. */
  static final int MULTIXACT_MEMBERGROUPS_PER_PAGE = SlruFiles.SLRU_PAGE_SIZE / MULTIXACT_MEMBERGROUP_SIZE;
  /** MULTIXACT_MEMBERS_PER_PAGE: 1636. */
  static final int MULTIXACT_MEMBERS_PER_PAGE = MULTIXACT_MEMBERGROUPS_PER_PAGE * MULTIXACT_MEMBERS_PER_MEMBERGROUP;

  /** MultiXactStatusForUpdate; statuses above it are updates (ISUPDATE_from_mxstatus). */
  static final int MULTIXACT_STATUS_FOR_UPDATE = 0x03;
  /** FirstMultiXactId: 0 is InvalidMultiXactId and is skipped on wraparound. */
  static final int FIRST_MULTIXACT_ID = 1;
  /** A multixact with more members than this is taken as damage, not read. */
  private static final long MAX_MEMBERS = 1 << 20;
  /** {@link #updateXid}'s answer for a multixact whose members the copy does not hold. */
  static final long NOT_IN_COPY = -1;

  private final SlruFiles offsets;
  private final SlruFiles members;
  private final int nextMulti;
  private final int nextOffset;

  /**
   * @param nextMulti the control file's checkpoint nextMulti: the first unassigned multixact
   * @param nextOffset the checkpoint's nextMultiOffset: where its members would start
   */
  MultiXacts(FileStore files, int nextMulti, int nextOffset) {
    this.offsets = new SlruFiles(files, "pg_multixact/offsets");
    this.members = new SlruFiles(files, "pg_multixact/members");
    this.nextMulti = nextMulti;
    this.nextOffset = nextOffset;
  }

  /**
   * MultiXactIdGetUpdateXid: the member that updated or deleted the row, or 0
   * (InvalidTransactionId) when every member only locked it; {@link #NOT_IN_COPY} when the
   * copy does not hold its members: a copy of a running server can end before the newest
   * multixacts' offsets and members were written (an offset of 0 is one not yet set, as
   * GetMultiXactIdMembers in {@code multixact.c} reads it).
   */
  long updateXid(int multi) {
    int start = offsetOf(multi);
    int following = multi + 1 == 0 ? FIRST_MULTIXACT_ID : multi + 1;
    int end = following == nextMulti ? nextOffset : offsetOf(following);
    if (start == 0 || end == 0) {
      return NOT_IN_COPY;
    }
    long length = Integer.toUnsignedLong(end - start);
    if (length > MAX_MEMBERS) {
      throw new CommitStatusUnavailableException("Cannot resolve multixact " + Integer.toUnsignedString(multi)
          + ": its offsets " + Integer.toUnsignedString(start) + ".." + Integer.toUnsignedString(end)
          + " give " + length + " members");
    }
    int updater = 0;
    for (int i = 0, offset = start; i < length; i++, offset++) {
      long unsigned = Integer.toUnsignedLong(offset);
      byte[] page = members.pageIfCopied(unsigned / MULTIXACT_MEMBERS_PER_PAGE); // MXOffsetToMemberPage
      if (page == null) {
        return NOT_IN_COPY;
      }
      int member = (int) (unsigned % MULTIXACT_MEMBERS_PER_MEMBERGROUP);
      int flagsOffset = (int) ((unsigned / MULTIXACT_MEMBERS_PER_MEMBERGROUP)
          % MULTIXACT_MEMBERGROUPS_PER_PAGE) * MULTIXACT_MEMBERGROUP_SIZE;     // MXOffsetToFlagsOffset
      int xid = LittleEndian.int32(page,                                        // MXOffsetToMemberOffset
          flagsOffset + MULTIXACT_FLAGBYTES_PER_GROUP + member * Integer.BYTES);
      if (xid == 0) {
        continue; // unused slot zero after an offset wraparound
      }
      int status = (LittleEndian.int32(page, flagsOffset) >>> (member * MXACT_MEMBER_BITS_PER_XACT)) & 0xFF;
      if (status > MULTIXACT_STATUS_FOR_UPDATE) {
        updater = xid;
      }
    }
    return updater;
  }

  /** The multixact's first member offset; 0 when not set, or when the copy ends before its page. */
  private int offsetOf(int multi) {
    long unsigned = Integer.toUnsignedLong(multi);
    byte[] page = offsets.pageIfCopied(unsigned / MULTIXACT_OFFSETS_PER_PAGE); // MultiXactIdToOffsetPage
    if (page == null) {
      return 0;
    }
    return LittleEndian.int32(page, (int) (unsigned % MULTIXACT_OFFSETS_PER_PAGE) * Integer.BYTES);
  }
}
