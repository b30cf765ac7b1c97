package io.pgbloat.xact;

import io.pgbloat.page.LittleEndian;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What one WAL record holds after its header, as DecodeXLogRecord
 * ({@code src/backend/access/transam/xlogreader.c}) splits it: the blocks it references and
 * its main data. The headers come first, in this order, then the blocks' images and data in
 * block order, then the main data ({@code src/include/access/xlogrecord.h}, the same in 13-18
 * but for the image flags, of which only "has a hole" and "compressed" are read here):
 *
 * <pre>
 * XLogRecordBlockHeader, one per block (id 0 to XLR_MAX_BLOCK_ID, ascending)
 *   uint8 id 0 | uint8 fork_flags 1 | uint16 data_length 2                       4 bytes
 *   if BKPBLOCK_HAS_IMAGE: XLogRecordBlockImageHeader
 *     uint16 length 0 | uint16 hole_offset 2 | uint8 bimg_info 4                 5 bytes
 *     if BKPIMAGE_HAS_HOLE and compressed: XLogRecordBlockCompressHeader
 *       uint16 hole_length                                                       2 bytes
 *   unless BKPBLOCK_SAME_REL: RelFileLocator {spcOid, dbOid, relNumber}          12 bytes
 *   BlockNumber                                                                  4 bytes
 * XLR_BLOCK_ID_ORIGIN 253:       uint8 id, RepOriginId                            3 bytes
 * XLR_BLOCK_ID_TOPLEVEL_XID 252: uint8 id, TransactionId                          5 bytes
 * XLR_BLOCK_ID_DATA_SHORT 255:   uint8 id, uint8 main data length                 2 bytes
 * XLR_BLOCK_ID_DATA_LONG 254:    uint8 id, uint32 main data length                5 bytes
 * </pre>
 *
 * A record without main data has no header for it: the headers end where only the blocks'
 * images and data are left.
 *
 * @param blocks the blocks referenced, in block id order
 * @param mainData the record's main data (empty when it has none)
 */
public record RecordContents(List<BlockReference> blocks, byte[] mainData) {
  static final int XLR_MAX_BLOCK_ID = 32;
  static final int XLR_BLOCK_ID_DATA_SHORT = 255;
  static final int XLR_BLOCK_ID_DATA_LONG = 254;
  static final int XLR_BLOCK_ID_ORIGIN = 253;
  static final int XLR_BLOCK_ID_TOPLEVEL_XID = 252;

  static final int SIZE_OF_BLOCK_HEADER = 4;
  static final int BLOCK_FORK_FLAGS_OFFSET = 1;
  static final int BLOCK_DATA_LENGTH_OFFSET = 2;
  /** fork_flags: the low four bits are the fork number. */
  static final int BKPBLOCK_FORK_MASK = 0x0F;
  static final int BKPBLOCK_HAS_IMAGE = 0x10;
  /** The block's RelFileLocator is the previous block's, and is not repeated. */
  static final int BKPBLOCK_SAME_REL = 0x80;
  static final int SIZE_OF_IMAGE_HEADER = 5;
  static final int IMAGE_LENGTH_OFFSET = 0;
  static final int IMAGE_INFO_OFFSET = 4;
  static final int BKPIMAGE_HAS_HOLE = 0x01;
  /** BKPIMAGE_COMPRESS_PGLZ, _LZ4 and _ZSTD (15 and later). */
  static final int BKPIMAGE_COMPRESSED = 0x04 | 0x08 | 0x10;
  static final int SIZE_OF_COMPRESS_HEADER = 2;
  static final int SIZE_OF_RELFILELOCATOR = 12;
  static final int SIZE_OF_ORIGIN = 2;
  static final int SIZE_OF_XID = 4;

  /**
   * One block a record references: its relation file (a shared relation's database is 0), its
   * fork number ({@code ForkNumber}: 0 main, 1 free space map, 2 visibility map, 3 init) and
   * its number in the fork.
   */
  public record BlockReference(long tablespace, long database, long relNumber, int fork, long block) {}

  public RecordContents {
    blocks = List.copyOf(blocks);
  }

  /**
   * Splits {@code bytes}, a whole record's bytes after its header (its CRC checked), into its
   * block references and main data.
   *
   * @throws IllegalArgumentException when the headers do not fit the bytes: not a record of
   *     this layout
   */
  public static RecordContents of(byte[] bytes) {
    List<BlockReference> blocks = new ArrayList<>();
    long dataLength = 0; // bytes of images and block data that follow the headers
    int mainLength = 0;
    long spc = -1;
    long db = -1;
    long rel = -1;
    int at = 0;
    try {
      while (bytes.length - at > dataLength) { // DecodeXLogRecord: headers until only the data is left
        int id = bytes[at] & 0xFF;
        if (id == XLR_BLOCK_ID_DATA_SHORT) {
          mainLength = LittleEndian.uint8(bytes, at + 1);
          at += 2;
          break; // the main data's header is the last
        } else if (id == XLR_BLOCK_ID_DATA_LONG) {
          mainLength = LittleEndian.int32(bytes, at + 1);
          at += 5;
          break;
        } else if (id == XLR_BLOCK_ID_ORIGIN) {
          at += 1 + SIZE_OF_ORIGIN;
        } else if (id == XLR_BLOCK_ID_TOPLEVEL_XID) {
          at += 1 + SIZE_OF_XID;
        } else if (id <= XLR_MAX_BLOCK_ID) {
          int flags = LittleEndian.uint8(bytes, at + BLOCK_FORK_FLAGS_OFFSET);
          dataLength += LittleEndian.uint16(bytes, at + BLOCK_DATA_LENGTH_OFFSET);
          at += SIZE_OF_BLOCK_HEADER;
          if ((flags & BKPBLOCK_HAS_IMAGE) != 0) {
            dataLength += LittleEndian.uint16(bytes, at + IMAGE_LENGTH_OFFSET);
            int info = LittleEndian.uint8(bytes, at + IMAGE_INFO_OFFSET);
            at += SIZE_OF_IMAGE_HEADER;
            if ((info & BKPIMAGE_HAS_HOLE) != 0 && (info & BKPIMAGE_COMPRESSED) != 0) {
              at += SIZE_OF_COMPRESS_HEADER;
            }
          }
          if ((flags & BKPBLOCK_SAME_REL) == 0) {
            spc = LittleEndian.uint32(bytes, at);
            db = LittleEndian.uint32(bytes, at + 4);
            rel = LittleEndian.uint32(bytes, at + 8);
            at += SIZE_OF_RELFILELOCATOR;
          } else if (rel < 0) {
            throw new IllegalArgumentException("block " + id + " refers to the previous block's relation, and none came before");
          }
          blocks.add(new BlockReference(spc, db, rel, flags & BKPBLOCK_FORK_MASK, LittleEndian.uint32(bytes, at)));
          at += Integer.BYTES;
        } else {
          throw new IllegalArgumentException("no block id " + id);
        }
      }
    } catch (IndexOutOfBoundsException e) {
      throw new IllegalArgumentException("its headers run past its " + bytes.length + " bytes");
    }
    if (mainLength < 0 || at + dataLength + mainLength != bytes.length) {
      throw new IllegalArgumentException("its headers account for " + (at + dataLength + mainLength) + " of its "
          + bytes.length + " bytes");
    }
    return new RecordContents(blocks, Arrays.copyOfRange(bytes, bytes.length - mainLength, bytes.length));
  }
}
