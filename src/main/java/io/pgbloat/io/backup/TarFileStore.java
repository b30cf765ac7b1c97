package io.pgbloat.io.backup;

import io.pgbloat.io.codec.Compression;
import io.pgbloat.io.codec.DecodedFile;
import io.pgbloat.io.codec.FileStoreInputStream;
import io.pgbloat.io.codec.ReadAheadInputStream;
import io.pgbloat.io.read.Fork;
import io.pgbloat.io.read.RelationFileNames;
import io.pgbloat.io.store.BackupIndex;
import io.pgbloat.io.store.DirectoryTree;
import io.pgbloat.io.store.FileExtent;
import io.pgbloat.io.store.FileStore;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A data directory read in place from the directory {@code pg_basebackup -Ft} writes: the main
 * tablespace in {@code base.tar}, each other tablespace in {@code <oid>.tar} (its members
 * relative to the tablespace's directory, so they are found here under {@code pg_tblspc/<oid>/},
 * where the directory form links them), and with {@code -X stream} the WAL in {@code pg_wal.tar}
 * (members at its top, here under {@code pg_wal/}): src/bin/pg_basebackup/pg_basebackup.c,
 * ReceiveTarFile. Any of them may be compressed ({@code -z}, {@code --compress}: .gz, .lz4, .zst).
 *
 * <p>An uncompressed archive is indexed by its headers alone, and a file's bytes are then read at
 * their offset in it, so a sample reads what it would of the directory. A compressed one cannot
 * be read at random: it is decoded once when the store opens, to index it and to keep in memory
 * the files planning reads (catalogs, visibility maps, commit logs, small files), handing a
 * {@link RelationFileReader} (a full scan's) the relation files as they decode; a task reading
 * its blocks later decodes it again from its start, reading the relations' blocks in archive
 * order, one read in flight ({@link BackupIndex#streamPosition}, {@link FileStore#decodesInOrder}).
 */
public final class TarFileStore extends PackedFileStore {
  /** The main tablespace's archive: its presence (without PG_VERSION beside it) marks the form. */
  public static final String BASE_ARCHIVE = "base.tar";
  /** The WAL pg_basebackup -X stream writes beside base.tar in tar mode. */
  static final String WAL_ARCHIVE = "pg_wal.tar";
  /** A tablespace's archive: its OID. */
  private static final Pattern TABLESPACE_ARCHIVE = Pattern.compile("[0-9]+\\.tar");
  /** The compressions pg_basebackup writes (src/bin/pg_basebackup: basebackup_gzip.c, _lz4.c, _zstd.c). */
  private static final List<Compression> WRITTEN = List.of(Compression.NONE, Compression.GZIP, Compression.LZ4,
      Compression.ZSTD);
  /** The shared catalogs' directory: planning reads all of it. */
  private static final String SHARED = "global/";
  /** Any other file up to this size (PG_VERSION, backup_label, relation maps) is kept too. */
  private static final long KEPT_SMALL_FILE = 1 << 20;
  /** At most this much is kept in memory of a compressed archive; past it, files are decoded again when read. */
  private static final long KEPT_AT_MOST = 2L << 30;
  /** What the tasks read besides the relations' blocks, so it goes to them with the index: the commit logs. */
  private static final List<String> TASKS_READ = List.of("pg_xact/", "pg_multixact/");

  /**
   * Where a file's bytes are.
   *
   * @param archive the archive's file name, as stored ("base.tar.gz")
   * @param compression the archive's compression
   * @param offset where the file's bytes start in the (decoded) archive
   * @param size the file's length
   */
  private record Location(String archive, Compression compression, long offset, long size)
      implements java.io.Serializable {}

  /**
   * The archives' members as this store found them, for a task to reopen it with.
   *
   * @param ends per compressed archive, where its last member ends (decoded)
   * @param shipped of the files kept in memory, those a task reads too (the commit logs, which
   *     it reads out of archive order); the rest stay with the driver
   */
  record Index(Map<String, Location> files, DirectoryTree directories, Map<String, Long> ends,
      Map<String, byte[]> shipped) implements BackupIndex {
    @Override
    public FileStore open(FileStore dir) {
      return new TarFileStore(dir, files, directories, ends, shipped);
    }

    @Override
    public String streamingWarning() {
      return !ends.isEmpty() ? "the backup's archives are compressed, so they are streamed: each is decoded whole to be "
          + "indexed, a full scan counting its pages as they decode; a sample decodes them again, one task an archive "
          + "for each pass of the scan, so it reads no quicker than a full scan" : null;
    }

    @Override
    public Optional<StreamPosition> streamPosition(String path) {
      Location at = files.get(path);
      return at == null || at.compression() == Compression.NONE ? Optional.empty()
          : Optional.of(new StreamPosition(at.archive(), at.offset()));
    }
  }

  private final Map<String, Location> files;
  private final Map<String, Long> ends;
  private final Map<String, byte[]> kept;

  private TarFileStore(FileStore archives, Map<String, Location> files, DirectoryTree directories,
      Map<String, Long> ends, Map<String, byte[]> kept) {
    super(archives, directories);
    this.files = files;
    this.ends = ends;
    this.kept = kept;
  }

  /** Whether {@code dir} is a pg_basebackup -Ft directory: base.tar (or a compressed one), no PG_VERSION. */
  public static boolean isTarBackup(FileStore dir) throws IOException {
    if (dir.length("PG_VERSION") >= 0) {
      return false;
    }
    for (Compression c : WRITTEN) {
      if (dir.length(BASE_ARCHIVE + c.suffix()) >= 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * The data directory in the archives of {@code dir}, indexed (a compressed archive decoded
   * once for it). The store owns {@code dir} and closes it.
   *
   * @throws ArchiveException when an archive is damaged ({@link TarArchive#index})
   */
  public static TarFileStore open(FileStore dir) throws IOException {
    return open(dir, RelationFileReader.NONE);
  }

  /**
   * As {@link #open(FileStore)}, handing {@code relations} the main fork (or init fork,
   * {@link #isCounted}) of every relation in a compressed archive as the archive decodes (a
   * thread of its own decoding ahead), so that what reads them needs no second pass.
   */
  public static TarFileStore open(FileStore dir, RelationFileReader relations) throws IOException {
    List<Archive> archives = new ArrayList<>();
    for (String stored : dir.list("")) {
      Compression compression = WRITTEN.stream().filter(c -> c != Compression.NONE && stored.endsWith(c.suffix()))
          .findFirst().orElse(Compression.NONE);
      String prefix = prefixOf(stored.substring(0, stored.length() - compression.suffix().length()));
      if (prefix != null) { // not backup_manifest, nor anything else beside the archives
        archives.add(new Archive(stored, compression, prefix));
      }
    }
    return open(dir, archives, relations);
  }

  /**
   * One archive of a backup: its path in the store beneath, its compression, and where its
   * members lie in the data directory ("" for the main tablespace's, "pg_tblspc/OID/" for
   * another's, "pg_wal/" for the WAL's).
   */
  public record Archive(String stored, Compression compression, String prefix) {}

  /**
   * The data directory in {@code archives} of {@code dir}, indexed as {@link #open(FileStore,
   * RelationFileReader)} does; a backup that names its archives otherwise (Barman's) lists them.
   * As a restore's recovery does, it shows of an unlogged relation only its init fork
   * ({@link UnloggedForks}).
   */
  public static TarFileStore open(FileStore dir, List<Archive> archives, RelationFileReader relations)
      throws IOException {
    Map<String, Location> files = new HashMap<>();
    List<String> directoryPaths = new ArrayList<>();
    Map<String, Long> ends = new HashMap<>();
    Map<String, byte[]> kept = new HashMap<>();
    for (Archive archive : archives) {
      String stored = archive.stored();
      List<TarArchive.Member> members;
      if (archive.compression() == Compression.NONE) {
        members = TarArchive.index(dir, stored);
      } else {
        members = decode(dir, stored, archive.compression(), new Keeper(archive.prefix(), kept, relations));
        ends.put(stored, members.stream().mapToLong(m -> m.offset() + TarArchive.padded(m.size())).max().orElse(0));
      }
      for (TarArchive.Member m : members) {
        String path = path(archive.prefix(), m);
        if (m.directory()) {
          directoryPaths.add(path);
        } else {
          files.put(path, new Location(stored, archive.compression(), m.offset(), m.size()));
        }
      }
    }
    for (String reset : UnloggedForks.removedByRecovery(files.keySet())) {
      files.remove(reset);
      kept.remove(reset);
    }
    DirectoryTree directories = new DirectoryTree();
    directoryPaths.forEach(directories::addDirectory);
    files.keySet().forEach(directories::add);
    return new TarFileStore(dir, files, directories, ends, kept);
  }

  /**
   * Where the members of archive {@code name} (its compression's suffix taken off) lie in the data
   * directory: base.tar's at its root, a tablespace's under pg_tblspc/OID/, the WAL's under pg_wal/;
   * null for a file that is none of them.
   */
  private static String prefixOf(String name) {
    if (name.equals(BASE_ARCHIVE)) {
      return "";
    }
    if (name.equals(WAL_ARCHIVE)) {
      return "pg_wal/";
    }
    return TABLESPACE_ARCHIVE.matcher(name).matches() ? "pg_tblspc/" + name.substring(0, name.length() - 4) + "/"
        : null;
  }

  /**
   * Decodes the compressed archive {@code stored} whole, to its end, indexing its members and
   * handing them to {@code keeper}; read ahead by a thread of its own, and decoded ahead by
   * another when the keeper reads relations as they come by.
   *
   * @throws ArchiveException when the archive does not decode, or decodes to a damaged tar
   */
  private static List<TarArchive.Member> decode(FileStore dir, String stored, Compression compression, Keeper keeper)
      throws IOException {
    try (InputStream read = FileStoreInputStream.readAhead(dir, stored, 0, dir.length(stored), "read " + stored)) {
      InputStream decoder = compression.decoder(read); // gzip's reads its header: a damaged one fails here
      try (InputStream decoded = keeper.reading ? new ReadAheadInputStream(decoder, "decode " + stored) : decoder) {
        List<TarArchive.Member> members = TarArchive.scan(decoded, stored, keeper);
        // to the stream's end: the codec checks its checksum there (gzip's CRC, zstd's and
        // lz4's content checksums when written), so damage no page checksum sees still shows
        decoded.transferTo(OutputStream.nullOutputStream());
        return members;
      }
    } catch (ArchiveException e) {
      throw e;
    } catch (IOException e) { // the codec's own word for a stream it cannot decode
      throw new ArchiveException(dir.root() + "/" + stored + ": does not decode as " + compression.suffix()
          + " (" + (e.getMessage() != null ? e.getMessage() : "it ends early") + "): it is truncated or damaged");
    }
  }

  /**
   * What a compressed archive's decoding keeps of its members in memory ({@link #planningReads},
   * up to {@link #KEPT_AT_MOST} in all, over every archive) and which it hands to the relation
   * reader as they decode ({@link #isCounted}).
   */
  private static final class Keeper implements TarArchive.Keeper {
    private final String prefix;
    private final Map<String, byte[]> kept;
    private final RelationFileReader relations;
    private final boolean reading;
    private long bytes;

    Keeper(String prefix, Map<String, byte[]> kept, RelationFileReader relations) {
      this.prefix = prefix;
      this.kept = kept;
      this.relations = relations;
      this.reading = relations != RelationFileReader.NONE;
      this.bytes = kept.values().stream().mapToLong(b -> b.length).sum();
    }

    @Override
    public boolean keeps(TarArchive.Member m) {
      return !m.directory() && bytes + m.size() <= KEPT_AT_MOST && planningReads(path(prefix, m), m.size());
    }

    @Override
    public void kept(TarArchive.Member m, byte[] content) throws IOException {
      kept.put(path(prefix, m), content);
      bytes += content.length;
      if (reads(m)) {
        relations.read(path(prefix, m), new ByteArrayInputStream(content));
      }
    }

    @Override
    public boolean reads(TarArchive.Member m) {
      return reading && !m.directory() && isCounted(path(prefix, m));
    }

    @Override
    public void read(TarArchive.Member m, InputStream content) throws IOException {
      relations.read(path(prefix, m), content);
    }
  }

  /** A member's path in the data directory: under its archive's prefix. */
  private static String path(String prefix, TarArchive.Member m) {
    return m.name().isEmpty() ? (prefix.isEmpty() ? prefix : prefix.substring(0, prefix.length() - 1))
        : prefix + m.name();
  }

  /**
   * Whether planning reads the file at {@code path} out of archive order, so that it is kept in
   * memory: the catalogs' main forks, visibility maps and init forks, the shared catalogs, the
   * commit logs and prepared transactions, and small files. Not the other relations' main forks,
   * which the tasks read in order, nor free space maps, nor WAL (read in order as it decodes).
   */
  private static boolean planningReads(String path, long size) {
    if (size > Integer.MAX_VALUE - 8 || path.startsWith("pg_wal/")) {
      return false;
    }
    if (path.startsWith(SHARED)) {
      return true;
    }
    Matcher fork = RelationFileNames.FORK_SEGMENT.matcher(path);
    if (fork.matches()) {
      return fork.group(2) == null ? Long.parseLong(fork.group(1)) < RelationFileNames.FIRST_NORMAL_OBJECT_ID
          : fork.group(2).equals(Fork.VISIBILITY_MAP.suffix()) || fork.group(2).equals(Fork.INIT.suffix());
    }
    return path.startsWith("pg_twophase/") || tasksRead(path)
        || size <= KEPT_SMALL_FILE;
  }

  /**
   * Whether {@code path} is a segment of what a relation is counted by: its main fork, or the
   * init fork of an unlogged one (whose main fork pg_basebackup leaves out, basebackup.c).
   */
  private static boolean isCounted(String path) {
    Matcher fork = RelationFileNames.FORK_SEGMENT.matcher(path);
    return fork.matches() && (fork.group(2) == null || fork.group(2).equals(Fork.INIT.suffix()));
  }

  private static boolean tasksRead(String path) {
    return TASKS_READ.stream().anyMatch(path::startsWith);
  }

  @Override
  public boolean decodesInOrder() {
    return !ends.isEmpty();
  }

  @Override
  public BackupIndex backupIndex() {
    Map<String, byte[]> shipped = new HashMap<>();
    kept.forEach((path, bytes) -> {
      if (tasksRead(path)) {
        shipped.put(path, bytes);
      }
    });
    return new Index(files, directories(), ends, shipped);
  }

  @Override
  public String root() {
    return beneath().root();
  }

  @Override
  public long length(String path) {
    Location at = files.get(path);
    return at == null ? -1 : at.size();
  }

  @Override
  public void readFully(String path, long position, byte[] buffer, int offset, int length) throws IOException {
    Location at = within(path, position, length);
    byte[] inMemory = kept.get(path);
    if (inMemory != null) {
      System.arraycopy(inMemory, (int) position, buffer, offset, length);
    } else if (at.compression() == Compression.NONE) {
      beneath().readFully(at.archive(), at.offset() + position, buffer, offset, length);
    } else {
      decoded(at).read(at.offset() + position, buffer, offset, length);
    }
  }

  @Override
  public void readFully(String path, long position, ByteBuffer buffer) throws IOException {
    Location at = within(path, position, buffer.remaining());
    if (at.compression() == Compression.NONE && !kept.containsKey(path)) {
      beneath().readFully(at.archive(), at.offset() + position, buffer);
    } else {
      super.readFully(path, position, buffer); // through the byte[] read above
    }
  }

  /** A heap buffer where files are decoded (they are copied out of the window anyway), else the archives' own. */
  @Override
  public ByteBuffer allocate(int bytes) {
    return decodesInOrder() ? ByteBuffer.allocate(bytes) : beneath().allocate(bytes);
  }

  /** The decoder of a compressed archive: one per archive, shared by its files. */
  private DecodedFile decoded(Location at) throws IOException {
    String stored = at.archive();
    return decoders().of(stored, s -> new DecodedFile(root() + "/" + stored,
        () -> at.compression().decoder(FileStoreInputStream.readAhead(beneath(), stored, 0, beneath().length(stored),
            "read " + stored)),
        ends.get(stored), false)); // the tar's trailer follows: the index pass read it to its end
  }

  /** The archive's extents over the member's bytes, in the member's own offsets (HDFS locality). */
  @Override
  public List<FileExtent> extents(String path) throws IOException {
    Location at = files.get(path);
    if (at == null || at.compression() != Compression.NONE) {
      return List.of();
    }
    return FileExtent.within(beneath().extents(at.archive()), at.offset(), at.size());
  }

  /** Nothing: the archives stay open, a handful whatever the number of relations. */
  @Override
  public void release(String path) {}


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
