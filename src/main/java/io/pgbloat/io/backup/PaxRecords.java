package io.pgbloat.io.backup;

import java.nio.charset.StandardCharsets;

/**
 * What a pax extended header says of the member after it, of what indexing needs: its path and
 * its size, where the ustar fields cannot hold them (a path past 100 bytes, a size past 8 GB).
 * The header's bytes are records {@code "<length> <keyword>=<value>\n"}, the length in decimal
 * counting the whole record (POSIX pax, "pax Extended Header"; written by Python's tarfile,
 * Lib/tarfile.py, TarInfo._create_pax_generic_header). Other keywords (mtime, uid, uname...) are
 * skipped.
 *
 * @param path the member's path, or null to take the ustar header's
 * @param size the member's size, or -1 to take the ustar header's
 */
record PaxRecords(String path, long size) {
  /** No records: the ustar header says it all. */
  static final PaxRecords NONE = new PaxRecords(null, -1);

  private static final String PATH = "path";
  private static final String SIZE = "size";

  /**
   * The records of a pax header, {@code where} naming it for messages.
   *
   * @throws ArchiveException when a record's length does not fit its bytes, or a size is not a number
   */
  static PaxRecords parse(byte[] records, String where) throws ArchiveException {
    String path = null;
    long size = -1;
    int at = 0;
    while (at < records.length && records[at] != 0) {
      int space = at;
      long length = 0;
      while (space < records.length && records[space] >= '0' && records[space] <= '9' && length < records.length) {
        length = length * 10 + (records[space++] - '0');
      }
      int equals = indexOf(records, (byte) '=', space, (int) Math.min(records.length, at + length));
      if (space == at || space >= records.length || records[space] != ' ' || at + length > records.length
          || equals < 0 || records[(int) (at + length - 1)] != '\n') {
        throw new ArchiveException(where + ": a pax header's record at byte " + at + " is malformed: the archive "
            + "is damaged");
      }
      String keyword = new String(records, space + 1, equals - space - 1, StandardCharsets.UTF_8);
      String value = new String(records, equals + 1, (int) (at + length - 1) - equals - 1, StandardCharsets.UTF_8);
      if (keyword.equals(PATH)) {
        path = value;
      } else if (keyword.equals(SIZE)) {
        size = sizeOf(value, where);
      }
      at += (int) length;
    }
    return new PaxRecords(path, size);
  }

  private static long sizeOf(String value, String where) throws ArchiveException {
    try {
      long size = Long.parseLong(value);
      if (size >= 0) {
        return size;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new ArchiveException(where + ": a pax header's size '" + value + "' is not a size: the archive is damaged");
  }

  private static int indexOf(byte[] bytes, byte b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    return -1;
  }
}
