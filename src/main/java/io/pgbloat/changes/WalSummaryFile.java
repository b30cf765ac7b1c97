package io.pgbloat.changes;

import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.Fork;
import io.pgbloat.page.LittleEndian;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * One WAL summary file: a block reference table as {@code src/common/blkreftable.c} writes it
 * (WriteBlockRefTable, BlockRefTableWriteEntry) and reads it (CreateBlockRefTableReader,
 * BlockRefTableReaderNextRelation, BlockRefTableReaderGetBlocks); the same in 17 and 18. In
 * the writer's byte order (little-endian here, as the magic shows):
 *
 * <pre>
 *   uint32 magic                          BLOCKREFTABLE_MAGIC
 *   per fork, sorted by tablespace, database, relNumber, fork:
 *     BlockRefTableSerializedEntry        24 bytes, no padding
 *       Oid spcOid 0 | Oid dbOid 4 | RelFileNumber relNumber 8 | ForkNumber forknum 12 |
 *       BlockNumber limit_block 16 | uint32 nchunks 20
 *     uint16 chunk_usage[nchunks]         entries used in each chunk of 65536 blocks
 *     per chunk whose usage is not 0: uint16[usage]
 *       usage MAX_ENTRIES_PER_CHUNK: a bitmap, block = chunk·65536 + 16·word + bit (low bit first)
 *       otherwise: the offsets in the chunk of the blocks modified, in no order
 *   a serialized entry of all zeros        the end (no fork has spcOid 0)
 *   uint32 CRC-32C of every byte before it
 * </pre>
 *
 * The summarizer records the main, visibility map and init forks, never the free space map. An
 * entry of relNumber 0 marks a database created or dropped in the span (SummarizeDbaseRecord):
 * every relation of that database and tablespace is to be taken as changed.
 */
public final class WalSummaryFile {
  /** BLOCKREFTABLE_MAGIC. */
  static final long MAGIC = 0x652B137BL;
  static final int SIZEOF_MAGIC = 4;
  static final int SIZEOF_SERIALIZED_ENTRY = 24;
  static final int SPC_OID_OFFSET = 0;
  static final int DB_OID_OFFSET = 4;
  static final int REL_NUMBER_OFFSET = 8;
  static final int FORKNUM_OFFSET = 12;
  static final int LIMIT_BLOCK_OFFSET = 16;
  static final int NCHUNKS_OFFSET = 20;
  static final int SIZEOF_CRC = 4;
  /** BLOCKS_PER_CHUNK: the blocks one chunk covers. */
  static final int BLOCKS_PER_CHUNK = 1 << 16;
  /** BLOCKS_PER_ENTRY: the blocks one uint16 of a bitmap covers. */
  static final int BLOCKS_PER_ENTRY = 16;
  /** MAX_ENTRIES_PER_CHUNK: a chunk this full is a bitmap. */
  static final int MAX_ENTRIES_PER_CHUNK = BLOCKS_PER_CHUNK / BLOCKS_PER_ENTRY;
  /** The most chunks a fork of 2^32 blocks can have. */
  static final long MAX_CHUNKS = (1L << 32) / BLOCKS_PER_CHUNK;

  private WalSummaryFile() {}

  /** The forks {@code bytes} (the whole file) records, in its order. */
  public static List<ForkChanges> parse(byte[] bytes) throws UnreadableSummaryException {
    if (bytes.length < SIZEOF_MAGIC + SIZEOF_SERIALIZED_ENTRY + SIZEOF_CRC) {
      throw new UnreadableSummaryException("is " + bytes.length + " bytes, shorter than an empty summary");
    }
    if (LittleEndian.uint32(bytes, 0) != MAGIC) {
      throw new UnreadableSummaryException("does not start with the block reference table's magic number");
    }
    int crcAt = bytes.length - SIZEOF_CRC;
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, crcAt);
    if (crc.getValue() != LittleEndian.uint32(bytes, crcAt)) {
      throw new UnreadableSummaryException("fails its CRC");
    }
    List<ForkChanges> forks = new ArrayList<>();
    int at = SIZEOF_MAGIC;
    while (true) {
      if (at + SIZEOF_SERIALIZED_ENTRY > crcAt) {
        throw new UnreadableSummaryException("ends without its terminating entry");
      }
      long spc = LittleEndian.uint32(bytes, at + SPC_OID_OFFSET);
      long db = LittleEndian.uint32(bytes, at + DB_OID_OFFSET);
      long rel = LittleEndian.uint32(bytes, at + REL_NUMBER_OFFSET);
      long forknum = LittleEndian.uint32(bytes, at + FORKNUM_OFFSET);
      long limit = LittleEndian.uint32(bytes, at + LIMIT_BLOCK_OFFSET);
      long nchunks = LittleEndian.uint32(bytes, at + NCHUNKS_OFFSET);
      at += SIZEOF_SERIALIZED_ENTRY;
      if (spc == 0 && db == 0 && rel == 0 && forknum == 0 && limit == 0 && nchunks == 0) {
        break;
      }
      if (forknum >= Fork.values().length) {
        throw new UnreadableSummaryException("names fork " + forknum + ", which no relation has");
      }
      if (nchunks > MAX_CHUNKS || at + 2 * nchunks > crcAt) {
        throw new UnreadableSummaryException("has an entry of " + nchunks + " chunks, past its end");
      }
      int[] usage = new int[(int) nchunks];
      long words = 0;
      long most = 0; // blocks the chunks can name: a bitmap's every block, an array's entries
      for (int c = 0; c < nchunks; c++) {
        usage[c] = LittleEndian.uint16(bytes, at + 2 * c);
        if (usage[c] > MAX_ENTRIES_PER_CHUNK) {
          throw new UnreadableSummaryException("has a chunk of " + usage[c] + " entries, more than a chunk holds");
        }
        words += usage[c];
        most += usage[c] == MAX_ENTRIES_PER_CHUNK ? BLOCKS_PER_CHUNK : usage[c];
      }
      at += (int) (2 * nchunks);
      if (at + 2 * words > crcAt) {
        throw new UnreadableSummaryException("has chunks past its end");
      }
      long[] blocks = new long[(int) Math.min(most, Integer.MAX_VALUE - 8)];
      int n = 0;
      for (int c = 0; c < nchunks; c++) {
        long base = (long) c * BLOCKS_PER_CHUNK;
        if (usage[c] == MAX_ENTRIES_PER_CHUNK) {
          for (int w = 0; w < MAX_ENTRIES_PER_CHUNK; w++) {
            int bits = LittleEndian.uint16(bytes, at + 2 * w);
            for (int b = 0; b < BLOCKS_PER_ENTRY; b++) {
              if ((bits & 1 << b) != 0) {
                blocks[n++] = base + (long) w * BLOCKS_PER_ENTRY + b;
              }
            }
          }
        } else {
          for (int i = 0; i < usage[c]; i++) {
            blocks[n++] = base + LittleEndian.uint16(bytes, at + 2 * i);
          }
        }
        at += 2 * usage[c];
      }
      long[] sorted = Arrays.copyOf(blocks, n);
      Arrays.sort(sorted);
      for (int i = 1; i < sorted.length; i++) {
        if (sorted[i] == sorted[i - 1]) {
          throw new UnreadableSummaryException("lists block " + sorted[i] + " twice in one fork");
        }
      }
      forks.add(new ForkChanges(new RelationFork(spc, db, rel, Fork.values()[(int) forknum]), limit,
          BlockList.of(sorted)));
    }
    if (at != crcAt) {
      throw new UnreadableSummaryException("has " + (crcAt - at) + " bytes after its terminating entry");
    }
    return forks;
  }
}
