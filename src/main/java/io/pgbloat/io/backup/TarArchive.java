package io.pgbloat.io.backup;

import io.pgbloat.io.store.FileStore;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
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
 *
 * <p>Barman Cloud's archives are written by Python's tarfile in its default pax format
 * (barman/cloud.py, CloudTarUploader; Lib/tarfile.py, TarInfo.create_pax_header): the same
 * ustar headers, each member preceded by a pax extended header (typeflag 'x') whenever a field
 * does not fit the ustar one or is fractional, which a file's mtime always is. Its records
 * ({@link PaxRecords}) name the member's path and size where the ustar fields cannot; the rest
 * (times, owners) are skipped. A global one ('g') is skipped too.
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
  /** A pax extended header, for the member after it; a global one, for all that follow (POSIX pax). */
  private static final byte TYPE_PAX_EXTENDED = 'x';
  private static final byte TYPE_PAX_GLOBAL = 'g';
  /** Past this, a pax header is not one a backup writes (it holds a path and a few numbers): damage. */
  private static final int PAX_HEADER_AT_MOST = 1 << 20;

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
   * The members of {@code archive} in {@code files}, in archive order, read by their headers
   * alone (an uncompressed archive, read at random).
   *
   * @throws ArchiveException when a header is damaged (its checksum, its magic, a kind of member
   *     pg_basebackup does not write) or the archive ends inside a member, each naming where
   */
  public static List<Member> index(FileStore files, String archive) throws IOException {
    long length = files.length(archive);
    List<Member> members = new ArrayList<>();
    HeaderWindow window = new HeaderWindow(files, archive, length);
    byte[] header = new byte[BLOCK_SIZE];
    long at = 0;
    PaxRecords pax = PaxRecords.NONE;
    while (at + BLOCK_SIZE <= length) {
      window.read(at, header, BLOCK_SIZE);
      if (isZero(header)) {
        return members; // the end-of-archive blocks
      }
      Member m = member(header, archive, at, pax);
      if (m.offset() + m.size() > length) {
        throw truncated(archive, m, length);
      }
      pax = PaxRecords.NONE;
      if (isPax(header)) {
        byte[] records = new byte[paxLength(m, archive)];
        window.read(m.offset(), records, records.length);
        pax = paxFor(header, records, archive, m);
      } else {
        members.add(m);
      }
      at = m.offset() + padded(m.size());
    }
    throw new ArchiveException(archive + ": ends at byte " + length + " without the end-of-archive blocks: it is "
        + "truncated (an interrupted copy?)");
  }

  /**
   * The bytes of an archive its headers are read from, a window of {@link #PAX_HEADER_AT_MOST}
   * at a time: the headers of a data directory's many small members lie within one read, which
   * on a remote store is one request instead of one a member; a large member's header costs one.
   */
  private static final class HeaderWindow {
    private final FileStore files;
    private final String archive;
    private final long length;
    private final byte[] bytes;
    private long start;
    private int filled;

    HeaderWindow(FileStore files, String archive, long length) {
      this.files = files;
      this.archive = archive;
      this.length = length;
      this.bytes = new byte[(int) Math.min(PAX_HEADER_AT_MOST, length)];
    }

    /** Copies the {@code count} bytes at {@code at} (at most the window's size) into {@code into}. */
    void read(long at, byte[] into, int count) throws IOException {
      if (at < start || at + count > start + filled) {
        start = at;
        filled = (int) Math.min(bytes.length, length - at);
        files.readFully(archive, at, bytes, 0, filled);
      }
      System.arraycopy(bytes, (int) (at - start), into, 0, count);
    }
  }

  /** What a streamed scan keeps of a member's bytes. */
  public interface Keeper {
    /** Whether to keep the bytes of {@code member}. */
    boolean keeps(Member member);

    /** The bytes of a member {@link #keeps} chose. */
    void kept(Member member, byte[] bytes) throws IOException;

    /** Whether to hand {@link #read} the bytes of {@code member}, not kept, as they decode. */
    default boolean reads(Member member) {
      return false;
    }

    /** The bytes of a member {@link #reads} chose, as they decode; what is left unread is skipped. */
    default void read(Member member, InputStream bytes) throws IOException {}
  }

  /**
   * The members of the archive whose bytes {@code in} gives in order (a compressed archive,
   * decoded once), handing {@code keeper} the bytes of those it keeps and skipping the rest.
   *
   * @throws ArchiveException as {@link #index} does
   */
  public static List<Member> scan(InputStream in, String archive, Keeper keeper) throws IOException {
    List<Member> members = new ArrayList<>();
    byte[] header = new byte[BLOCK_SIZE];
    long at = 0;
    PaxRecords pax = PaxRecords.NONE;
    while (true) {
      int got = in.readNBytes(header, 0, BLOCK_SIZE);
      if (got < BLOCK_SIZE) {
        throw new ArchiveException(archive + ": ends at byte " + (at + got) + " (decoded) without the end-of-archive "
            + "blocks: it is truncated (an interrupted copy?)");
      }
      if (isZero(header)) {
        return members;
      }
      Member m = member(header, archive, at, pax);
      pax = PaxRecords.NONE;
      if (isPax(header)) {
        byte[] records = in.readNBytes(paxLength(m, archive));
        if (records.length < m.size()) {
          throw truncated(archive, m, m.offset() + records.length);
        }
        pax = paxFor(header, records, archive, m);
        skip(in, archive, m, padded(m.size()) - m.size());
      } else if (keeper.keeps(m)) {
        byte[] bytes = in.readNBytes((int) m.size());
        if (bytes.length < m.size()) {
          throw truncated(archive, m, m.offset() + bytes.length);
        }
        keeper.kept(m, bytes);
        skip(in, archive, m, padded(m.size()) - m.size());
      } else if (keeper.reads(m)) {
        MemberStream bytes = new MemberStream(in, m.size());
        keeper.read(m, bytes);
        skip(in, archive, m, bytes.left + padded(m.size()) - m.size());
      } else {
        skip(in, archive, m, padded(m.size()));
      }
      if (!isPax(header)) {
        members.add(m);
      }
      at = m.offset() + padded(m.size());
    }
  }

  /** One member's bytes of the archive's stream: its reader cannot read past them. */
  private static final class MemberStream extends InputStream {
    private final InputStream in;
    private long left;

    MemberStream(InputStream in, long size) {
      this.in = in;
      this.left = size;
    }

    @Override
    public int read() throws IOException {
      if (left == 0) {
        return -1;
      }
      int b = in.read();
      if (b >= 0) {
        left--;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (left == 0) {
        return len == 0 ? 0 : -1;
      }
      int n = in.read(b, off, (int) Math.min(len, left));
      if (n > 0) {
        left -= n;
      }
      return n;
    }
  }

  private static void skip(InputStream in, String archive, Member m, long bytes) throws IOException {
    try {
      in.skipNBytes(bytes);
    } catch (EOFException e) {
      throw truncated(archive, m, -1);
    }
  }

  /**
   * The member whose header, read at byte {@code at} of {@code archive}, is {@code header},
   * checked; its path and size as the pax records before it give them, if they do. A pax
   * header is a member here too, its records its bytes.
   */
  private static Member member(byte[] header, String archive, long at, PaxRecords pax) throws ArchiveException {
    String where = archive + " at byte " + at;
    if (!hasMagic(header)) {
      throw new ArchiveException(where + ": not a tar header (no ustar magic): the archive is damaged");
    }
    if (number(header, CHECKSUM, CHECKSUM_LENGTH) != checksum(header)) {
      throw new ArchiveException(where + ": the header's checksum is wrong: the archive is damaged");
    }
    String name = pax.path() != null ? normalized(pax.path()) : name(header);
    byte type = header[TYPEFLAG];
    if (type != TYPE_PLAIN && type != TYPE_PLAIN_OLD && type != TYPE_DIRECTORY && type != TYPE_SYMLINK
        && !isPax(header)) {
      throw new ArchiveException(where + ": member " + name + " is of tar type '" + (char) type
          + "', which neither pg_basebackup nor Barman writes: give a backup they wrote");
    }
    long size = pax.size() >= 0 ? pax.size() : number(header, SIZE, SIZE_LENGTH);
    if (size < 0) {
      throw new ArchiveException(where + ": member " + name + " has a size past 2^63: the archive is damaged");
    }
    return new Member(name, at + BLOCK_SIZE, size, type == TYPE_DIRECTORY || type == TYPE_SYMLINK);
  }

  private static boolean isPax(byte[] header) {
    return header[TYPEFLAG] == TYPE_PAX_EXTENDED || header[TYPEFLAG] == TYPE_PAX_GLOBAL;
  }

  /** The length of the pax header {@code m}'s records, checked against {@link #PAX_HEADER_AT_MOST}. */
  private static int paxLength(Member m, String archive) throws ArchiveException {
    if (m.size() > PAX_HEADER_AT_MOST) {
      throw new ArchiveException(archive + " at byte " + (m.offset() - BLOCK_SIZE) + ": a pax header of " + m.size()
          + " bytes, where a backup writes a path and a few numbers: the archive is damaged");
    }
    return (int) m.size();
  }

  /** What the pax header {@code header} (its records {@code records}) says of the next member: none for a global one. */
  private static PaxRecords paxFor(byte[] header, byte[] records, String archive, Member m) throws ArchiveException {
    PaxRecords parsed = PaxRecords.parse(records, archive + " at byte " + (m.offset() - BLOCK_SIZE));
    return header[TYPEFLAG] == TYPE_PAX_EXTENDED ? parsed : PaxRecords.NONE;
  }

  /** A member cut short: the archive ends at {@code end} (-1 when not known) inside it. */
  private static ArchiveException truncated(String archive, Member m, long end) {
    return new ArchiveException(archive + ": member " + m.name() + " needs " + m.size() + " bytes from byte "
        + m.offset() + ", but the archive ends " + (end < 0 ? "inside it" : "at " + end)
        + ": it is truncated (an interrupted copy?)");
  }

  /** {@code size} rounded up to whole blocks (pgtar.h, tarPaddingBytesRequired). */
  static long padded(long size) {
    return (size + BLOCK_SIZE - 1) / BLOCK_SIZE * BLOCK_SIZE;
  }

  /** The path: the ustar prefix, if any, then the name ({@link #normalized}). */
  private static String name(byte[] header) {
    String name = text(header, NAME, NAME_LENGTH);
    String prefix = text(header, PREFIX, PREFIX_LENGTH);
    return normalized(prefix.isEmpty() ? name : prefix + "/" + name);
  }

  /** A member's path less "./" before and "/" after; "." (the archive's top, as Python's tarfile names it) is "". */
  private static String normalized(String name) {
    String path = name;
    if (path.equals(".")) {
      return "";
    }
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
