package io.pgbloat.catalog;

import io.pgbloat.error.DataDirectoryException;
import io.pgbloat.page.LittleEndian;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * A {@code pg_filenode.map} file: the file numbers of the "mapped" catalogs, whose pg_class
 * row says relfilenode 0 (pg_class itself, pg_database, ...). Layout of RelMapFile in
 * {@code src/backend/utils/cache/relmapper.c} (PostgreSQL 15):
 *
 * <pre>
 * | int32 magic | int32 num_mappings | 62 x {Oid mapoid, Oid mapfilenode} | crc32c | pad |
 *   0             4                    8                                  504      508  (512)
 * </pre>
 */
public final class RelationMap {
  /** RELMAPPER_FILEMAGIC: version ID value. */
  static final int RELMAPPER_FILEMAGIC = 0x592717;
  /** MAX_MAPPINGS: 62 * 8 + 16 = 512. */
  static final int MAX_MAPPINGS = 62;
  static final int MAGIC_OFFSET = 0;
  static final int NUM_MAPPINGS_OFFSET = 4;
  static final int MAPPINGS_OFFSET = 8;
  static final int MAPPING_SIZE = 8;
  static final int CRC_OFFSET = MAPPINGS_OFFSET + MAX_MAPPINGS * MAPPING_SIZE;
  /** sizeof(RelMapFile). */
  static final int FILE_SIZE = 512;

  private final Map<Integer, Integer> fileNumbers;

  private RelationMap(Map<Integer, Integer> fileNumbers) {
    this.fileNumbers = fileNumbers;
  }

  /** Parses the map file {@code path} (for messages) from {@code bytes}. */
  public static RelationMap parse(String path, byte[] bytes) {
    if (bytes.length != FILE_SIZE) {
      throw new DataDirectoryException("Cannot read " + path + ": it is " + bytes.length
          + " bytes, expected " + FILE_SIZE + "; the data directory is damaged");
    }
    int magic = LittleEndian.int32(bytes, MAGIC_OFFSET);
    if (magic != RELMAPPER_FILEMAGIC) {
      throw new DataDirectoryException(String.format(
          "Cannot read %s: magic 0x%x, expected 0x%x; not a PostgreSQL 15 relation map", path, magic,
          RELMAPPER_FILEMAGIC));
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, CRC_OFFSET);
    if (crc.getValue() != LittleEndian.uint32(bytes, CRC_OFFSET)) {
      throw new DataDirectoryException("Cannot read " + path + ": CRC mismatch; the relation map is damaged");
    }
    int count = LittleEndian.int32(bytes, NUM_MAPPINGS_OFFSET);
    if (count < 0 || count > MAX_MAPPINGS) {
      throw new DataDirectoryException("Cannot read " + path + ": " + count + " mappings, at most "
          + MAX_MAPPINGS + " fit; the relation map is damaged");
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
