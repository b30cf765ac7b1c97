package io.pgbloat.io.backup;

import com.fasterxml.jackson.databind.JsonNode;
import io.pgbloat.io.codec.Compression;
import io.pgbloat.io.codec.DecodedFile;
import io.pgbloat.io.codec.FileStoreInputStream;
import io.pgbloat.io.store.BackupIndex;
import io.pgbloat.io.store.DirectoryTree;
import io.pgbloat.io.store.FileExtent;
import io.pgbloat.io.store.FileStore;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A data directory read in place from one backup of a pgBackRest repository, no restore. The
 * backup's {@code backup.manifest} names every file, its size and the backup that holds it
 * ({@code reference}: a file unchanged since an earlier full or differential backup is stored
 * there only), and the repository's compression; a file lives at
 * {@code backup/<stanza>/<label>/pg_data/<path>} (a tablespace's at
 * {@code .../pg_tblspc/<oid>/...}, as here) with the compression's suffix, or inside a bundle
 * ({@code bundle/<id>} at an offset) when the backup bundles (src/info/manifest,
 * src/command/backup/backup.c, src/command/restore/restore.c). An uncompressed file is read at
 * random; a compressed one is decoded from its start as reads rise ({@link DecodedFile}).
 * Encrypted repositories and block-incremental backups are refused in one line.
 */
public final class PgBackRestFileStore extends PackedFileStore {
  /** The prefix of a data directory given as a repository: {@code pgbackrest:REPO[?stanza=S&set=L]}. */
  public static final String SCHEME = "pgbackrest:";
  /** The manifest's names for the data directory and the tablespaces (manifest.h: MANIFEST_TARGET_PGDATA...). */
  private static final String PG_DATA = "pg_data/";
  private static final String PG_TBLSPC = "pg_tblspc/";
  private static final String MANIFEST = "backup.manifest";
  private static final String INFO = "backup.info";
  /** pgBackRest writes every info file twice, the second as a fallback (src/info/info.c, infoLoad). */
  private static final String COPY = ".copy";

  /** Where one file's bytes are in the repository; a bundled one shares its repository file with others. */
  private record Stored(String repoPath, long offset, long repoSize, long size, boolean bundled)
      implements java.io.Serializable {}

  /** The manifest as this store read it, for a task to reopen it with. */
  record Index(String root, Compression compression, Map<String, Stored> files, DirectoryTree directories)
      implements BackupIndex {
    @Override
    public FileStore open(FileStore repository) {
      return new PgBackRestFileStore(repository, root, compression, files, directories);
    }

    @Override
    public String streamingWarning() {
      return compression != Compression.NONE ? "the backup's files are compressed (" + compression.name().toLowerCase(java.util.Locale.ROOT)
          + "), so each file read is decoded from its start, whole in one task: a sample decodes each file it reads "
          + "up to its last sampled block" : null;
    }

    /** Each file compressed alone is a stream of its own, decoded from its start. */
    @Override
    public Optional<StreamPosition> streamPosition(String path) {
      return compression == Compression.NONE || !files.containsKey(path) ? Optional.empty()
          : Optional.of(new StreamPosition(path, 0));
    }
  }

  private final String root;
  private final Compression compression;
  private final Map<String, Stored> files;
  /** One decoder per compressed file, made at its first read, let go when a scan moves past it. */

  private PgBackRestFileStore(FileStore repository, String root, Compression compression, Map<String, Stored> files,
      DirectoryTree directories) {
    super(repository, directories);
    this.root = root;
    this.compression = compression;
    this.files = files;
    // the manifest gives each repository file's length (a bundle's, to its last file's end), so no read asks the store
    Map<String, Long> ends = new HashMap<>();
    files.values().forEach(s -> ends.merge(s.repoPath(), s.offset() + s.repoSize(), Math::max));
    ends.forEach(repository::knowLength);
  }

  /**
   * Where a repository's backup is: {@code pgbackrest:REPO_PATH[?stanza=NAME&set=LABEL]}.
   *
   * @param repository the repository's path (local or a Hadoop URI)
   * @param stanza the stanza, or null for the repository's only one
   * @param set the backup's label, or null for the latest
   */
  public record Address(String repository, String stanza, String set) {
    /** Whether {@code dataDir} names a repository. */
    public static boolean isOne(String dataDir) {
      return dataDir.startsWith(SCHEME);
    }

    /** The address {@code dataDir} gives. */
    public static Address parse(String dataDir) {
      BackupAddressText text = BackupAddressText.parse(dataDir, SCHEME, List.of("stanza", "set"), "repository path",
          "pgbackrest:REPO_PATH?stanza=NAME&set=LABEL");
      return new Address(text.location(), text.parameters().get("stanza"), text.parameters().get("set"));
    }
  }

  /**
   * The backup {@code address} names, in {@code repository} (opened at the repository's path,
   * owned by the store from now on).
   *
   * @throws ArchiveException for a repository, stanza or backup that is not there, a damaged
   *     info file, a backup it references that is gone, or a form this tool does not read
   */
  public static PgBackRestFileStore open(FileStore repository, Address address) throws IOException {
    String stanza = address.stanza() != null ? address.stanza() : onlyStanza(repository);
    String backups = "backup/" + stanza;
    PgBackRestInfo info = load(repository, backups + "/" + INFO);
    String label = address.set() != null ? address.set() : latest(info, backups);
    if (info.value("backup:current", label) == null) {
      throw new ArchiveException("stanza " + stanza + " has no backup " + label + "; it has "
          + String.join(", ", info.section("backup:current").keySet()));
    }
    PgBackRestInfo manifest = load(repository, backups + "/" + label + "/" + MANIFEST);
    refuseBlockIncremental(manifest, label);
    Compression compression = compressionOf(manifest, label);

    Map<String, Stored> files = new HashMap<>();
    DirectoryTree directories = new DirectoryTree();
    TreeSet<String> references = new TreeSet<>();
    for (Map.Entry<String, JsonNode> e : manifest.section("target:file").entrySet()) {
      String path = localPath(e.getKey());
      if (path != null) {
        JsonNode file = e.getValue();
        String holder = file.has("reference") ? file.get("reference").asText() : label;
        references.add(holder);
        files.put(path, stored(file, e.getKey(), backups + "/" + holder, compression));
        directories.add(path);
      }
    }
    for (String dir : manifest.section("target:path").keySet()) {
      String path = localPath(dir);
      if (path != null) {
        directories.addDirectory(path);
      }
    }
    for (String reference : references) {
      if (!repository.isDirectory(backups + "/" + reference)) {
        throw new ArchiveException("backup " + label + " holds files of backup " + reference + ", which is not in "
            + repository.root() + "/" + backups + " (expired or deleted?): the backup cannot be read whole");
      }
    }
    return new PgBackRestFileStore(repository, repository.root() + " (stanza " + stanza + ", backup " + label + ")",
        compression, files, directories);
  }

  /** Refuses a block-incremental backup (repo-block): its files are block maps, which are not read. */
  private static void refuseBlockIncremental(PgBackRestInfo manifest, String label) throws ArchiveException {
    JsonNode blockIncr = manifest.value("backup", "backup-block-incr");
    if (blockIncr != null && blockIncr.asBoolean()) {
      throw new ArchiveException("backup " + label + " is block incremental (repo-block): its files are stored as "
          + "block maps (.pgbi), which are not read; give a backup taken without repo-block");
    }
    JsonNode bundleRaw = manifest.value("backup", "backup-bundle-raw");
    if (bundleRaw != null && bundleRaw.asBoolean()) {
      throw new ArchiveException("backup " + label + " bundles raw compressed files (backup-bundle-raw, with "
          + "repo-block), which are not read; give a backup taken without repo-block");
    }
  }

  /** The compression the backup's files are stored in: option-compress-type, or before 2.27 option-compress (gz). */
  private static Compression compressionOf(PgBackRestInfo manifest, String label) throws ArchiveException {
    // option-compress-type since 2.27; before it, option-compress true meant gz (serialize.c.inc)
    JsonNode type = manifest.value("backup:option", "option-compress-type");
    JsonNode legacy = manifest.value("backup:option", "option-compress");
    String typeName = type != null ? type.asText() : legacy != null && legacy.asBoolean() ? "gz" : "none";
    return Compression.ofPgBackRestType(typeName).orElseThrow(
        () -> new ArchiveException("backup " + label + ": compress-type " + type + " is not one this tool decodes"));
  }

  /**
   * Where the manifest's {@code file} (of key {@code key}) is stored in the repository, in the
   * backup directory {@code holder} that holds it.
   */
  private static Stored stored(JsonNode file, String key, String holder, Compression compression) {
    long size = file.get("size").asLong();
    // repo-size: the stored (compressed) length, written only where it differs from size (serialize.c.inc)
    long repoSize = file.has("repo-size") ? file.get("repo-size").asLong() : size;
    if (file.has("bni")) { // bundled: bundle/<id> in the holding backup, at bno (src/command/backup/backup.c)
      long offset = file.has("bno") ? file.get("bno").asLong() : 0;
      return new Stored(holder + "/bundle/" + file.get("bni").asText(), offset, repoSize, size, true);
    }
    return new Stored(holder + "/" + key + compression.suffix(), 0, repoSize, size, false);
  }

  /** The data directory's path of a manifest's key: pg_data/x is x; pg_tblspc/... stays; others none. */
  private static String localPath(String key) {
    if (key.startsWith(PG_DATA)) {
      return key.substring(PG_DATA.length());
    }
    if (key.equals("pg_data")) {
      return "";
    }
    return key.startsWith(PG_TBLSPC) ? key : null;
  }

  private static String onlyStanza(FileStore repository) throws IOException {
    List<String> stanzas = repository.list("backup");
    if (stanzas.size() != 1) {
      throw new ArchiveException(stanzas.isEmpty() ? repository.root() + " holds no pgBackRest backup (no backup/ "
          + "directory of a stanza): give the repository's path (repo-path)"
          : repository.root() + " holds the stanzas " + String.join(", ", new TreeSet<>(stanzas))
              + ": name one, pgbackrest:REPO_PATH?stanza=NAME");
    }
    return stanzas.get(0);
  }

  /** The current backup that stopped last. */
  private static String latest(PgBackRestInfo info, String backups) throws ArchiveException {
    String latest = null;
    long stop = Long.MIN_VALUE;
    for (Map.Entry<String, JsonNode> e : info.section("backup:current").entrySet()) {
      long at = e.getValue().path("backup-timestamp-stop").asLong();
      if (at > stop) {
        stop = at;
        latest = e.getKey();
      }
    }
    if (latest == null) {
      throw new ArchiveException(backups + " has no current backup");
    }
    return latest;
  }

  /** An info file, or its copy when the file itself is missing or damaged, as pgBackRest does. */
  private static PgBackRestInfo load(FileStore repository, String path) throws IOException {
    ArchiveException first;
    try {
      return PgBackRestInfo.parse(path, read(repository, path));
    } catch (ArchiveException e) {
      first = e;
    }
    try {
      return PgBackRestInfo.parse(path + COPY, read(repository, path + COPY));
    } catch (ArchiveException e) {
      throw first;
    }
  }

  private static byte[] read(FileStore repository, String path) throws IOException {
    if (repository.length(path) < 0) {
      throw new ArchiveException(repository.root() + "/" + path + " does not exist: not a pgBackRest repository, "
          + "stanza or backup");
    }
    return repository.readAll(path);
  }

  @Override
  public boolean decodesInOrder() {
    return compression != Compression.NONE;
  }

  @Override
  public BackupIndex backupIndex() {
    return new Index(root, compression, files, directories());
  }

  @Override
  public String root() {
    return root;
  }

  @Override
  public long length(String path) {
    Stored s = files.get(path);
    return s == null ? -1 : s.size();
  }

  @Override
  public void readFully(String path, long position, byte[] buffer, int offset, int length) throws IOException {
    Stored s = files.get(path);
    if (s == null) {
      throw new FileNotFoundException(root + ": no file " + path + " in the backup");
    }
    if (position < 0 || position + length > s.size()) {
      throw new EOFException(root + ": " + path + " is " + s.size() + " bytes, read at " + position + " for " + length);
    }
    if (length == 0) {
      return;
    }
    if (compression == Compression.NONE) {
      beneath().readFully(s.repoPath(), s.offset() + position, buffer, offset, length);
    } else {
      decoded(path, s).read(position, buffer, offset, length);
    }
  }

  /** A whole (small) file: a compressed one decoded at once, with no decoder kept for it. */
  @Override
  public byte[] readAll(String path) throws IOException {
    Stored s = files.get(path);
    if (s == null || compression == Compression.NONE || s.size() == 0) {
      return super.readAll(path);
    }
    try (InputStream in = compression.decoder(new FileStoreInputStream(beneath(), s.repoPath(), s.offset(),
        s.repoSize()))) {
      byte[] bytes = in.readNBytes((int) Math.min(s.size(), Integer.MAX_VALUE - 8));
      if (bytes.length != s.size() || in.read() >= 0) { // read to the end, where the codec checks its checksum
        throw new EOFException(root + ": " + path + " decodes to " + bytes.length + " bytes where the manifest says "
            + s.size() + ": it is truncated or damaged");
      }
      return bytes;
    }
  }

  @Override
  public void readFully(String path, long position, ByteBuffer buffer) throws IOException {
    Stored s = files.get(path);
    if (compression != Compression.NONE || s == null || position < 0 || position + buffer.remaining() > s.size()) {
      super.readFully(path, position, buffer); // through the checks and the decoder above
    } else {
      beneath().readFully(s.repoPath(), s.offset() + position, buffer);
    }
  }

  /** The stored file's extents over its bytes, in its own offsets (HDFS locality); none when it is compressed. */
  @Override
  public List<FileExtent> extents(String path) throws IOException {
    Stored s = files.get(path);
    if (s == null || compression != Compression.NONE || s.size() == 0) {
      return List.of();
    }
    return FileExtent.within(beneath().extents(s.repoPath()), s.offset(), s.size());
  }

  @Override
  public ByteBuffer allocate(int bytes) {
    return compression == Compression.NONE ? beneath().allocate(bytes) : ByteBuffer.allocate(bytes);
  }

  private DecodedFile decoded(String path, Stored s) throws IOException {
    return decoders().of(path, p -> new DecodedFile(root + ": " + path,
        () -> compression.decoder(FileStoreInputStream.readAhead(beneath(), s.repoPath(), s.offset(), s.repoSize(),
            "read " + s.repoPath())),
        s.size(), true));
  }

  /**
   * Forgets {@code path}'s decoder and closes its repository file, so a scan that moves past a
   * relation frees its window and its descriptor (a bundle, which other files share, stays open).
   */
  @Override
  public void release(String path) throws IOException {
    decoders().release(path);
    Stored s = files.get(path);
    if (s != null && !s.bundled()) {
      beneath().release(s.repoPath());
    }
  }

}
