package io.pgbloat.io;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A data directory read in place from the directory {@code pg_basebackup -Ft} writes: the main
 * tablespace in {@code base.tar}, each other tablespace in {@code <oid>.tar} (its members
 * relative to the tablespace's directory, so they are found here under {@code pg_tblspc/<oid>/},
 * where the directory form links them), and with {@code -X stream} the WAL in {@code pg_wal.tar}
 * (members at its top, here under {@code pg_wal/}): src/bin/pg_basebackup/pg_basebackup.c,
 * ReceiveTarFile. Each archive is indexed once when the store opens; a file's bytes are then read
 * at their offset in the archive, so a sample reads what it would of the directory.
 */
public final class TarFileStore implements FileStore {
  /** The main tablespace's archive: its presence (without PG_VERSION beside it) marks the form. */
  public static final String BASE_ARCHIVE = "base.tar";
  /** The WAL pg_basebackup -X stream writes beside base.tar in tar mode. */
  static final String WAL_ARCHIVE = "pg_wal.tar";
  /** A tablespace's archive: its OID. */
  private static final Pattern TABLESPACE_ARCHIVE = Pattern.compile("[0-9]+\\.tar");
  /** The forms pg_basebackup -z and --compress write (basebackup_gzip.c, _lz4.c, _zstd.c). */
  private static final List<String> COMPRESSED = List.of(".gz", ".lz4", ".zst");

  /** Where a file's bytes are: in which archive, from which byte, how many. */
  private record Location(String archive, long offset, long size) {}

  private final FileStore archives;
  private final Map<String, Location> files;
  private final DirectoryTree directories;

  private TarFileStore(FileStore archives, Map<String, Location> files, DirectoryTree directories) {
    this.archives = archives;
    this.files = files;
    this.directories = directories;
  }

  /** Whether {@code dir} is a pg_basebackup -Ft directory: base.tar (or a compressed one), no PG_VERSION. */
  public static boolean isTarBackup(FileStore dir) throws IOException {
    if (dir.length("PG_VERSION") >= 0) {
      return false;
    }
    if (dir.length(BASE_ARCHIVE) >= 0) {
      return true;
    }
    for (String suffix : COMPRESSED) {
      if (dir.length(BASE_ARCHIVE + suffix) >= 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * The data directory in the archives of {@code dir}, indexed. The store owns {@code dir} and
   * closes it.
   *
   * @throws IOException when an archive is compressed, or damaged ({@link TarArchive#index})
   */
  public static TarFileStore open(FileStore dir) throws IOException {
    Map<String, Location> files = new HashMap<>();
    DirectoryTree directories = new DirectoryTree();
    for (String name : dir.list("")) {
      for (String suffix : COMPRESSED) {
        if (name.endsWith(".tar" + suffix)) {
          throw new ArchiveException(dir.root() + "/" + name + " is compressed (" + suffix.substring(1)
              + "): a compressed pg_basebackup archive is not read yet; give an uncompressed one "
              + "(pg_basebackup -Ft without -z or --compress), or unpack it to a directory");
        }
      }
      String prefix = name.equals(BASE_ARCHIVE) ? "" : name.equals(WAL_ARCHIVE) ? "pg_wal/"
          : TABLESPACE_ARCHIVE.matcher(name).matches() ? "pg_tblspc/" + name.substring(0, name.length() - 4) + "/"
          : null;
      if (prefix == null) {
        continue; // backup_manifest and anything else beside the archives
      }
      for (TarArchive.Member m : TarArchive.index(dir, name)) {
        String path = m.name().isEmpty() ? stripSlash(prefix) : prefix + m.name();
        if (m.directory()) {
          directories.addDirectory(path);
        } else {
          directories.add(path);
          files.put(path, new Location(name, m.offset(), m.size()));
        }
      }
    }
    return new TarFileStore(dir, files, directories);
  }

  private static String stripSlash(String prefix) {
    return prefix.isEmpty() ? prefix : prefix.substring(0, prefix.length() - 1);
  }

  @Override
  public String root() {
    return archives.root();
  }

  @Override
  public long length(String path) {
    Location at = files.get(path);
    return at == null ? -1 : at.size();
  }

  @Override
  public boolean isDirectory(String path) {
    return directories.isDirectory(path);
  }

  @Override
  public List<String> list(String path) {
    return directories.list(path);
  }

  @Override
  public void readFully(String path, long position, byte[] buffer, int offset, int length) throws IOException {
    Location at = within(path, position, length);
    archives.readFully(at.archive(), at.offset() + position, buffer, offset, length);
  }

  @Override
  public void readFully(String path, long position, ByteBuffer buffer) throws IOException {
    Location at = within(path, position, buffer.remaining());
    archives.readFully(at.archive(), at.offset() + position, buffer);
  }

  @Override
  public ByteBuffer allocate(int bytes) {
    return archives.allocate(bytes);
  }

  /** The archive's extents over the member's bytes, in the member's own offsets (HDFS locality). */
  @Override
  public List<FileExtent> extents(String path) throws IOException {
    Location at = files.get(path);
    if (at == null) {
      return List.of();
    }
    List<FileExtent> extents = new ArrayList<>();
    for (FileExtent e : archives.extents(at.archive())) {
      long start = Math.max(e.offset(), at.offset());
      long end = Math.min(e.offset() + e.length(), at.offset() + at.size());
      if (start < end) {
        extents.add(new FileExtent(start - at.offset(), end - start, e.hosts()));
      }
    }
    return extents;
  }

  /** Nothing: the archives stay open, a handful whatever the number of relations. */
  @Override
  public void release(String path) {}

  @Override
  public void close() throws IOException {
    archives.close();
  }

  private Location within(String path, long position, int length) throws IOException {
    Location at = files.get(path);
    if (at == null) {
      throw new java.io.FileNotFoundException(root() + ": no member " + path + " in the archives");
    }
    if (position < 0 || position + length > at.size()) {
      throw new EOFException(root() + "/" + at.archive() + ": member " + path + " is " + at.size()
          + " bytes, read at " + position + " for " + length);
    }
    return at;
  }
}
