package io.pgbloat.io;

import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The tar format {@code pg_basebackup -Ft} writes, read in place: an archive is a sequence of
 * 512-byte headers, each followed by its member's bytes padded to 512, and ends with blocks of
 * zeros. Indexing reads the headers only, skipping from one to the next, so a member's bytes are
 * then read at random like a file's. The layout is PostgreSQL's own (src/include/pgtar.h, written
 * by tarCreateHeader and read_tar_number in src/port/tar.c, the same from 13 to 18): the
 * POSIX ustar header with numbers in octal, or in base-256 after a 0x80 byte when they do not fit.
 */
public final class TarArchive {
  /** TAR_BLOCK_SIZE: headers and the padding of members are this long. */
  public static final int BLOCK_SIZE = 512;

  /** Offsets in a header (pgtar.h, enum tarHeaderOffset) and the widths tar.c writes them in. */
  private static final int NAME = 0;
  private static final int NAME_LENGTH = 100;
  private static final int SIZE = 124;
  private static final int SIZE_LENGTH = 12;
  private static final int CHECKSUM = 148;
  private static final int CHECKSUM_LENGTH = 8;
  private static final int TYPEFLAG = 156;
  private static final int MAGIC = 257;
  private static final int PREFIX = 345;
  private static final int PREFIX_LENGTH = 155;
  /** What every header tarCreateHeader writes holds at {@link #MAGIC}, then a NUL (or a space: old GNU tar). */
  private static final byte[] USTAR = "ustar".getBytes(StandardCharsets.US_ASCII);
  /** read_tar_number: a first byte of 0x80 says base-256 follows (a GNU extension), else octal. */
  private static final int BASE_256 = 0x80;

  /** A file; '\0' is the same in old archives. Directories are '5', symbolic links '2' (pgtar.h). */
  private static final byte TYPE_PLAIN = '0';
  private static final byte TYPE_PLAIN_OLD = 0;
  private static final byte TYPE_SYMLINK = '2';
  private static final byte TYPE_DIRECTORY = '5';

  private TarArchive() {}

  /**
   * One member of an archive.
   *
   * @param name its path as the archive names it, without a leading "./" or a trailing "/"
   * @param offset where its bytes start in the archive
   * @param size its length in bytes (0 for a directory)
   * @param directory whether it is a directory (a symbolic link to one, too: pg_basebackup
   *     writes tablespace links so)
   */
  public record Member(String name, long offset, long size, boolean directory) implements Serializable {}

  /**
   * The members of {@code archive} in {@code files}, in archive order.
   *
   * @throws IOException when a header is damaged (its checksum, its magic, a kind of member
   *     pg_basebackup does not write) or the archive ends inside a member, each naming where
   */
  public static List<Member> index(FileStore files, String archive) throws IOException {
    long length = files.length(archive);
    List<Member> members = new ArrayList<>();
    byte[] header = new byte[BLOCK_SIZE];
    long at = 0;
    while (at + BLOCK_SIZE <= length) {
      files.readFully(archive, at, header, 0, BLOCK_SIZE);
      if (isZero(header)) {
        return members; // the end-of-archive blocks
      }
      String where = archive + " at byte " + at;
      if (!hasMagic(header)) {
        throw new ArchiveException(where + ": not a tar header (no ustar magic): the archive is damaged");
      }
      if (number(header, CHECKSUM, CHECKSUM_LENGTH) != checksum(header)) {
        throw new ArchiveException(where + ": the header's checksum is wrong: the archive is damaged");
      }
      String name = name(header);
      byte type = header[TYPEFLAG];
      long size = number(header, SIZE, SIZE_LENGTH);
      if (type != TYPE_PLAIN && type != TYPE_PLAIN_OLD && type != TYPE_DIRECTORY && type != TYPE_SYMLINK) {
        throw new ArchiveException(where + ": member " + name + " is of tar type '" + (char) type
            + "', which pg_basebackup does not write: give a directory of pg_basebackup -Ft archives");
      }
      long data = at + BLOCK_SIZE;
      if (data + size > length) {
        throw new ArchiveException(archive + ": member " + name + " needs " + size + " bytes from byte " + data
            + ", but the archive ends at " + length + ": it is truncated (an interrupted copy?)");
      }
      members.add(new Member(name, data, size, type == TYPE_DIRECTORY || type == TYPE_SYMLINK));
      at = data + padded(size);
    }
    throw new ArchiveException(archive + ": ends at byte " + length + " without the end-of-archive blocks: it is "
        + "truncated (an interrupted copy?)");
  }

  /** {@code size} rounded up to whole blocks (pgtar.h, tarPaddingBytesRequired). */
  static long padded(long size) {
    return (size + BLOCK_SIZE - 1) / BLOCK_SIZE * BLOCK_SIZE;
  }

  /** The path: the ustar prefix, if any, then the name, less "./" before and "/" after. */
  private static String name(byte[] header) {
    String name = text(header, NAME, NAME_LENGTH);
    String prefix = text(header, PREFIX, PREFIX_LENGTH);
    String path = prefix.isEmpty() ? name : prefix + "/" + name;
    while (path.startsWith("./")) {
      path = path.substring(2);
    }
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    return path;
  }

  private static String text(byte[] header, int offset, int length) {
    int end = offset;
    while (end < offset + length && header[end] != 0) {
      end++;
    }
    return new String(header, offset, end - offset, StandardCharsets.UTF_8);
  }

  /** read_tar_number (tar.c): octal digits up to the first other byte, or base-256 after 0x80. */
  static long number(byte[] header, int offset, int length) {
    long result = 0;
    if ((header[offset] & 0xFF) == BASE_256) {
      for (int i = offset + 1; i < offset + length; i++) {
        result = (result << 8) | (header[i] & 0xFF);
      }
      return result;
    }
    for (int i = offset; i < offset + length && header[i] >= '0' && header[i] <= '7'; i++) {
      result = (result << 3) | (header[i] - '0');
    }
    return result;
  }

  /** tarChecksum (tar.c): the sum of the header's bytes, unsigned, the checksum field taken as spaces. */
  static long checksum(byte[] header) {
    long sum = (long) CHECKSUM_LENGTH * ' ';
    for (int i = 0; i < BLOCK_SIZE; i++) {
      if (i < CHECKSUM || i >= CHECKSUM + CHECKSUM_LENGTH) {
        sum += header[i] & 0xFF;
      }
    }
    return sum;
  }

  private static boolean hasMagic(byte[] header) {
    for (int i = 0; i < USTAR.length; i++) {
      if (header[MAGIC + i] != USTAR[i]) {
        return false;
      }
    }
    return true;
  }

  private static boolean isZero(byte[] header) {
    for (byte b : header) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }
}
