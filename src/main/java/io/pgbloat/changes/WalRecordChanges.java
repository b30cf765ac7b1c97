package io.pgbloat.changes;

import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.Fork;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.page.LittleEndian;
import io.pgbloat.xact.RecordContents;
import io.pgbloat.xact.TransactionEnd;
import io.pgbloat.xact.WalFormat;
import io.pgbloat.xact.WalRecords;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * What the WAL a copy holds in {@code pg_wal} says changed from an LSN on, read record by
 * record as the WAL summarizer reads it ({@code src/backend/postmaster/walsummarizer.c},
 * SummarizeWAL and its Summarize*Record): every block a record references is modified but the
 * free space map's; a relation fork created (XLOG_SMGR_CREATE), or every fork of a file a
 * commit or abort drops, gets limit block 0; a truncation (XLOG_SMGR_TRUNCATE) its new length
 * on the main fork and the visibility map; a database created or dropped (XLOG_DBASE_*) an
 * entry of relNumber 0. This covers the stretch the summaries do not reach yet: the summarizer
 * writes a file only when it meets the next checkpoint's redo point, and PostgreSQL keeps the
 * WAL it has not summarized ({@code KeepLogSeg}, {@code xlog.c}).
 *
 * <p>The stretch proves nothing past a record that says WAL was written at wal_level minimal
 * (a redo point, a parameter change: the summarizer skips such WAL, and so must a reuse) or
 * that a new timeline began (XLOG_END_OF_RECOVERY): {@link #refusal} says which.
 *
 * <pre>
 * main data of the records read (src/include/catalog/storage_xlog.h, dbcommands_xlog.h,
 * pg_control.h; 17 and 18, the versions that summarize WAL)
 *   XLOG_SMGR_CREATE      RelFileLocator rlocator 0 | ForkNumber forkNum 12
 *   XLOG_SMGR_TRUNCATE    BlockNumber blkno 0 | RelFileLocator rlocator 4 | int flags 16
 *   XLOG_DBASE_CREATE_FILE_COPY, _CREATE_WAL_LOG   Oid db_id 0 | Oid tablespace_id 4 | ...
 *   XLOG_DBASE_DROP       Oid db_id 0 | int ntablespaces 4 | Oid tablespace_ids[] 8
 *   XLOG_CHECKPOINT_REDO  int wal_level 0
 *   XLOG_CHECKPOINT_SHUTDOWN, _ONLINE   CheckPoint: ... bool fullPageWrites 16 | int wal_level 20
 *   XLOG_PARAMETER_CHANGE ... int max_locks_per_xact 16 | int wal_level 20
 *   XLOG_BACKUP_END       XLogRecPtr startpoint 0
 * </pre>
 *
 * @param from the LSN the stretch starts at
 * @param end the byte after the last record of the unbroken WAL from {@code from}; {@code from}
 *     itself when the copy's WAL does not reach back to it
 * @param backupEnds per XLOG_BACKUP_END record of the stretch, the backup's start point
 *     it ends, and where the record begins
 * @param walAfterGap whether the copy holds WAL past a gap after {@code end}
 * @param refusal why the stretch proves nothing, or null
 * @param forks what the stretch changed, fork by fork
 */
public record WalRecordChanges(long from, long end, Map<Long, Long> backupEnds,
    boolean walAfterGap, String refusal, Map<RelationFork, ForkChanges> forks) {
  /** RM_SMGR_ID and RM_DBASE_ID ({@code src/include/access/rmgrlist.h}). */
  static final int RM_SMGR_ID = 2;
  static final int RM_DBASE_ID = 4;

  static final int XLOG_CHECKPOINT_SHUTDOWN = 0x00;
  static final int XLOG_CHECKPOINT_ONLINE = 0x10;
  static final int XLOG_BACKUP_END = 0x50;
  static final int XLOG_PARAMETER_CHANGE = 0x60;
  static final int XLOG_END_OF_RECOVERY = 0x90;
  static final int XLOG_CHECKPOINT_REDO = 0xE0;
  static final int CHECKPOINT_WAL_LEVEL_OFFSET = 20;
  static final int PARAMETER_CHANGE_WAL_LEVEL_OFFSET = 20;
  /** WAL_LEVEL_MINIMAL ({@code src/include/access/xlog.h}). */
  static final int WAL_LEVEL_MINIMAL = 0;

  static final int XLOG_SMGR_CREATE = 0x10;
  static final int XLOG_SMGR_TRUNCATE = 0x20;
  static final int SMGR_CREATE_FORK_OFFSET = 12;
  static final int SMGR_TRUNCATE_RLOCATOR_OFFSET = 4;
  static final int SMGR_TRUNCATE_FLAGS_OFFSET = 16;
  static final int SMGR_TRUNCATE_HEAP = 0x0001;
  static final int SMGR_TRUNCATE_VM = 0x0002;

  static final int XLOG_DBASE_CREATE_FILE_COPY = 0x00;
  static final int XLOG_DBASE_CREATE_WAL_LOG = 0x10;
  static final int XLOG_DBASE_DROP = 0x20;
  static final int DBASE_TABLESPACE_OFFSET = 4;
  static final int DBASE_DROP_TABLESPACES_OFFSET = 8;

  public WalRecordChanges {
    backupEnds = Map.copyOf(backupEnds);
    forks = Map.copyOf(forks);
  }

  /** Whether the stretch proves every change from {@link #from} to {@code lsn}. */
  public boolean reaches(long lsn) {
    return refusal == null && end >= lsn;
  }

  /** The changes of {@code pg_wal}'s records from {@code from} on. */
  public static WalRecordChanges read(FileStore files, WalFormat format, long from) throws IOException {
    Reading reading = new Reading(from, format);
    WalRecords.forEach(files, format, from, reading::add);
    return reading.result();
  }

  /** The records read so far and what they changed. */
  private static final class Reading {
    private final long from;
    private final WalFormat format;
    private long end;
    private final Map<Long, Long> backupEnds = new HashMap<>();
    private String refusal;
    private boolean walAfterGap;
    private final Map<RelationFork, Blocks> forks = new HashMap<>();

    Reading(long from, WalFormat format) {
      this.from = from;
      this.format = format;
      this.end = from;
    }

    void add(WalRecords.WalRecord record) {
      if (record.runStart() > from && record.end() > end) {
        walAfterGap = true;
      }
      if (refusal != null || record.end() <= from || record.runStart() > from) {
        return; // past a refusal, summarized already, or in a later run of WAL, after a gap
      }
      try {
        RecordContents contents = RecordContents.of(record.bytes());
        int info = record.rmgrInfo();
        byte[] data = contents.mainData();
        switch (record.rmid()) {
          case WalRecords.RM_XLOG_ID -> xlog(record, info, data);
          case RM_SMGR_ID -> smgr(info, data);
          case RM_DBASE_ID -> dbase(info, data);
          default -> {
            TransactionEnd ended = TransactionEnd.of(record, data, format);
            if (ended != null) {
              dropped(ended);
            }
          }
        }
        for (RecordContents.BlockReference b : contents.blocks()) {
          if (b.fork() != Fork.FREE_SPACE_MAP.ordinal() && b.fork() < Fork.values().length) {
            blocks(new RelationFork(b.tablespace(), b.database(), b.relNumber(), Fork.values()[b.fork()]))
                .add(b.block());
          }
        }
      } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
        refusal = "the WAL record at " + WalSummaryName.lsn(record.lsn()) + " cannot be read: " + e.getMessage();
        return;
      }
      if (refusal == null) {
        end = record.end();
      }
    }

    /** Every fork but the free space map of each file a commit or abort drops: limit 0. */
    private void dropped(TransactionEnd ended) {
      for (TransactionEnd.DroppedFile file : ended.droppedFiles()) {
        for (Fork fork : Fork.values()) {
          if (fork != Fork.FREE_SPACE_MAP) {
            blocks(new RelationFork(file.tablespace(), file.database(), file.relNumber(), fork)).limit(0);
          }
        }
      }
    }

    private void xlog(WalRecords.WalRecord record, int info, byte[] data) {
      int walLevel = switch (info) {
        case XLOG_CHECKPOINT_REDO -> LittleEndian.int32(data, 0);
        case XLOG_CHECKPOINT_SHUTDOWN, XLOG_CHECKPOINT_ONLINE -> LittleEndian.int32(data, CHECKPOINT_WAL_LEVEL_OFFSET);
        case XLOG_PARAMETER_CHANGE -> LittleEndian.int32(data, PARAMETER_CHANGE_WAL_LEVEL_OFFSET);
        default -> -1;
      };
      if (walLevel == WAL_LEVEL_MINIMAL) {
        refusal = "the WAL at " + WalSummaryName.lsn(record.lsn()) + " was written at wal_level minimal, which "
            + "leaves changes out of it";
      } else if (info == XLOG_END_OF_RECOVERY) {
        refusal = "a new timeline begins at " + WalSummaryName.lsn(record.lsn());
      } else if (info == XLOG_BACKUP_END) {
        backupEnds.put(LittleEndian.int64(data, 0), record.lsn());
      }
    }

    private void smgr(int info, byte[] data) {
      if (info == XLOG_SMGR_CREATE) {
        int fork = LittleEndian.int32(data, SMGR_CREATE_FORK_OFFSET);
        if (fork != Fork.FREE_SPACE_MAP.ordinal() && fork >= 0 && fork < Fork.values().length) {
          blocks(locator(data, 0, Fork.values()[fork])).limit(0);
        }
      } else if (info == XLOG_SMGR_TRUNCATE) {
        long block = LittleEndian.uint32(data, 0);
        int flags = LittleEndian.int32(data, SMGR_TRUNCATE_FLAGS_OFFSET);
        if ((flags & SMGR_TRUNCATE_HEAP) != 0) {
          blocks(locator(data, SMGR_TRUNCATE_RLOCATOR_OFFSET, Fork.MAIN)).limit(block);
        }
        if ((flags & SMGR_TRUNCATE_VM) != 0) {
          blocks(locator(data, SMGR_TRUNCATE_RLOCATOR_OFFSET, Fork.VISIBILITY_MAP)).limit(block);
        }
      }
    }

    private void dbase(int info, byte[] data) {
      long db = LittleEndian.uint32(data, 0);
      if (info == XLOG_DBASE_CREATE_FILE_COPY || info == XLOG_DBASE_CREATE_WAL_LOG) {
        blocks(new RelationFork(LittleEndian.uint32(data, DBASE_TABLESPACE_OFFSET), db, 0, Fork.MAIN)).limit(0);
      } else if (info == XLOG_DBASE_DROP) {
        int n = LittleEndian.int32(data, DBASE_TABLESPACE_OFFSET);
        for (int i = 0; i < n; i++) {
          long spc = LittleEndian.uint32(data, DBASE_DROP_TABLESPACES_OFFSET + Integer.BYTES * i);
          blocks(new RelationFork(spc, db, 0, Fork.MAIN)).limit(0);
        }
      }
    }

    private static RelationFork locator(byte[] data, int at, Fork fork) {
      return new RelationFork(LittleEndian.uint32(data, at), LittleEndian.uint32(data, at + 4),
          LittleEndian.uint32(data, at + 8), fork);
    }

    private Blocks blocks(RelationFork fork) {
      return forks.computeIfAbsent(fork, f -> new Blocks());
    }

    WalRecordChanges result() {
      Map<RelationFork, ForkChanges> changes = new HashMap<>();
      forks.forEach((fork, blocks) -> changes.put(fork, blocks.changes(fork)));
      return new WalRecordChanges(from, end, backupEnds, walAfterGap, refusal, changes);
    }
  }

  /** One fork's modified blocks, as they come, and its limit block. */
  private static final class Blocks {
    private long[] blocks = new long[16];
    private int size;
    private long limit = ForkChanges.NO_LIMIT;

    void add(long block) {
      if (size == blocks.length) {
        blocks = Arrays.copyOf(blocks, 2 * size);
      }
      blocks[size++] = block;
    }

    void limit(long block) {
      limit = Math.min(limit, block);
    }

    ForkChanges changes(RelationFork fork) {
      long[] sorted = Arrays.stream(blocks, 0, size).sorted().distinct().toArray();
      return new ForkChanges(fork, limit, BlockList.of(sorted));
    }
  }
}
