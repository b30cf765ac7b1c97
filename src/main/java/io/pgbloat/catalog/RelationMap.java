package io.pgbloat.catalog;

import io.pgbloat.error.DataDirectoryException;
import io.pgbloat.page.LittleEndian;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * A {@code pg_filenode.map} file: the file numbers of the "mapped" catalogs, whose pg_class
 * row says relfilenode 0 (pg_class itself, pg_database, ...). Layout of RelMapFile in
 * {@code src/backend/utils/cache/relmapper.c}; the magic is the same in 13-18, only the
 * number of mappings (and with it the size) changed in 16:
 *
 * <pre>
 * | int32 magic | int32 num_mappings | MAX_MAPPINGS x {Oid mapoid, Oid mapfilenode} | crc32c | pad    |
 *   0             4                    8                                            8+8*MAX
 *   13-15: MAX_MAPPINGS 62, crc at 504, int32 pad to 512
 *   16-18: MAX_MAPPINGS 64, crc at 520, no pad: 524
 * </pre>
 */
public final class RelationMap {
  /** RELMAPPER_FILEMAGIC: version ID value. */
  static final int RELMAPPER_FILEMAGIC = 0x592717;
  static final int MAGIC_OFFSET = 0;
  static final int NUM_MAPPINGS_OFFSET = 4;
  static final int MAPPINGS_OFFSET = 8;
  static final int MAPPING_SIZE = 8;

  /**
   * One version's RelMapFile.
   *
   * @param maxMappings MAX_MAPPINGS
   * @param fileSize sizeof(RelMapFile)
   */
  record Format(int maxMappings, int fileSize) {
    /** PostgreSQL 13-15: 62 * 8 + 16 = 512. */
    static final Format PG13 = new Format(62, 512);
    /** PostgreSQL 16-18: 64 * 8 + 12 = 524. */
    static final Format PG16 = new Format(64, 524);

    int crcOffset() {
      return MAPPINGS_OFFSET + maxMappings * MAPPING_SIZE;
    }
  }

  private final Map<Integer, Integer> fileNumbers;

  private RelationMap(Map<Integer, Integer> fileNumbers) {
    this.fileNumbers = fileNumbers;
  }

  /** Parses the map file {@code path} (for messages) from {@code bytes}. */
  static RelationMap parse(String path, byte[] bytes, Format format) {
    if (bytes.length != format.fileSize()) {
      throw new DataDirectoryException("Cannot read " + path + ": it is " + bytes.length
          + " bytes, expected " + format.fileSize() + "; the data directory is damaged");
    }
    int magic = LittleEndian.int32(bytes, MAGIC_OFFSET);
    if (magic != RELMAPPER_FILEMAGIC) {
      throw new DataDirectoryException(String.format(
          "Cannot read %s: magic 0x%x, expected 0x%x; not a PostgreSQL relation map", path, magic,
          RELMAPPER_FILEMAGIC));
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, format.crcOffset());
    if (crc.getValue() != LittleEndian.uint32(bytes, format.crcOffset())) {
      throw new DataDirectoryException("Cannot read " + path + ": CRC mismatch; the relation map is damaged");
    }
    int count = LittleEndian.int32(bytes, NUM_MAPPINGS_OFFSET);
    if (count < 0 || count > format.maxMappings()) {
      throw new DataDirectoryException("Cannot read " + path + ": " + count + " mappings, at most "
          + format.maxMappings() + " fit; the relation map is damaged");
    }
    Map<Integer, Integer> map = new HashMap<>();
    for (int i = 0; i < count; i++) {
      int at = MAPPINGS_OFFSET + i * MAPPING_SIZE;
      map.put(LittleEndian.int32(bytes, at), LittleEndian.int32(bytes, at + 4));
    }
    return new RelationMap(map);
  }

  /** The file number of mapped relation {@code oid}, or 0 when it is not in this map. */
  public int fileNumber(int oid) {
    return fileNumbers.getOrDefault(oid, 0);
  }
}
