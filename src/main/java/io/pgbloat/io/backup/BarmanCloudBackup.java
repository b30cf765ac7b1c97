package io.pgbloat.io.backup;

import io.pgbloat.io.codec.Compression;
import io.pgbloat.io.store.FileStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A data directory read in place from a backup {@code barman-cloud-backup} made (CloudNativePG's
 * are its too), no restore. Under the URL it was given (the bucket and prefix), a server's
 * backups are {@code <server>/base/<backup id>/}, each holding {@code backup.info}
 * ({@link BarmanBackupInfo}), the data directory in {@code data.tar} and each other tablespace
 * in {@code <oid>.tar}, its members relative to the tablespace's directory (barman/cloud.py:
 * CloudBackupUploader._create_upload_controller and _backup_data_files,
 * CloudBackupCatalog.get_backup_files). An archive that grew past {@code --max-archive-size}
 * goes on in {@code data_0001.tar}, {@code data_0002.tar} and so on, each a whole tar
 * (CloudUploadController._get_tar). Archives end in {@code .gz}, {@code .bz2} or
 * {@code .snappy} when compressed ({@code _build_dest_name}). The WAL (under
 * {@code <server>/wals/}) is not read; {@code backup_label} is in data.tar, pg_control last of
 * its files.
 *
 * <p>So the backup is a set of tar archives like a pg_basebackup -Ft directory, read as one
 * ({@link TarFileStore}); this class finds the backup and its archives. A backup id is the time
 * it started, {@code YYYYMMDDTHHMMSS} (CloudBackup._get_backup_info), so ids sort as the backups
 * were taken, as Barman sorts them (barman/backup.py, get_latest_backup_id).
 */
public final class BarmanCloudBackup {
  /** The prefix of a data directory given as a Barman Cloud backup: {@code barman:URL?server=NAME[&backup=ID]}. */
  public static final String SCHEME = "barman:";
  private static final String USAGE = "barman:URL?server=NAME[&backup=ID]";
  private static final String BASE = "base";
  private static final String INFO = "backup.info";
  /** barman/utils.py, is_backup_id: anything else given as a backup is its name (--name). */
  private static final Pattern BACKUP_ID = Pattern.compile("\\d{8}T\\d{6}");
  /** The data directory's archive (with its part number past the first), or a tablespace's, by OID. */
  private static final String DATA = "data";
  private static final Pattern ARCHIVE = Pattern.compile("(data|\\d+)(?:_(\\d{4,}))?\\.tar(\\.[^/]+)?");
  /** The compressions barman-cloud-backup writes (--gzip, --bzip2, --snappy). */
  private static final List<Compression> WRITTEN = List.of(Compression.NONE, Compression.GZIP, Compression.BZIP2,
      Compression.SNAPPY);
  /** Barman's own scheme for S3 (aws_s3.py), which Hadoop serves as s3a. */
  private static final String BARMAN_S3 = "s3://";
  private static final String HADOOP_S3 = "s3a://";

  private BarmanCloudBackup() {}

  /**
   * Where a Barman Cloud backup is.
   *
   * @param url the bucket and prefix barman-cloud-backup was given (s3:// read as s3a://), a
   *     Hadoop URI, or the path of a copy of them
   * @param server the server's name, as barman-cloud-backup was given it
   * @param backup the backup's id or name, or null for the newest that completed
   */
  public record Address(String url, String server, String backup) {
    /** Whether {@code dataDir} names a Barman Cloud backup. */
    public static boolean isOne(String dataDir) {
      return dataDir.startsWith(SCHEME);
    }

    /** The address {@code dataDir} gives. */
    public static Address parse(String dataDir) {
      BackupAddressText text = BackupAddressText.parse(dataDir, SCHEME, List.of("server", "backup"), "URL", USAGE);
      String server = text.parameters().get("server");
      if (server == null) {
        throw new IllegalArgumentException("no server in " + dataDir + "; give " + USAGE
            + ", the server name barman-cloud-backup was given");
      }
      String url = text.location().startsWith(BARMAN_S3) ? HADOOP_S3 + text.location().substring(BARMAN_S3.length())
          : text.location();
      return new Address(url, server, text.parameters().get("backup"));
    }
  }

  /**
   * The backup {@code address} names, in {@code bucket} (opened at its URL, owned by the store
   * from now on), indexed as {@link TarFileStore#open(FileStore, List, RelationFileReader)} does.
   *
   * @throws ArchiveException for a server or backup that is not there, a backup that did not
   *     complete, an archive missing, or a form this tool does not read
   */
  public static TarFileStore open(FileStore bucket, Address address, RelationFileReader relations)
      throws IOException {
    String backups = address.server() + "/" + BASE;
    if (!bucket.isDirectory(backups)) {
      throw new ArchiveException(bucket.root() + " holds no backups of server " + address.server() + " (no "
          + backups + "/)" + servers(bucket));
    }
    String id = address.backup() == null ? newestDone(bucket, backups, address.server())
        : BACKUP_ID.matcher(address.backup()).matches() ? address.backup()
        : named(bucket, backups, address.server(), address.backup());
    String dir = backups + "/" + id;
    BarmanBackupInfo info = info(bucket, dir);
    if (info == null) {
      throw new ArchiveException("server " + address.server() + " has no backup " + id + " in " + bucket.root()
          + "; it has " + String.join(", ", ids(bucket, backups)));
    }
    if (!info.isDone()) {
      throw new ArchiveException("backup " + id + " of server " + address.server() + " has status " + info.status()
          + (info.error() != null ? " (" + info.error() + ")" : "") + ", not " + BarmanBackupInfo.DONE
          + ": it did not complete");
    }
    if (info.snapshot()) {
      throw new ArchiveException("backup " + id + " of server " + address.server() + " is of disk snapshots "
          + "(snapshots_info): its files are in the snapshots, not in " + bucket.root());
    }
    return TarFileStore.open(bucket, archives(bucket, dir, info, id), relations);
  }

  /** The newest backup of the server whose status is DONE, reading backup.info from the newest down. */
  private static String newestDone(FileStore bucket, String backups, String server) throws IOException {
    List<String> ids = ids(bucket, backups);
    List<String> seen = new ArrayList<>();
    for (int i = ids.size() - 1; i >= 0; i--) {
      String id = ids.get(i);
      BarmanBackupInfo info = info(bucket, backups + "/" + id);
      if (info != null && info.isDone() && !info.snapshot()) {
        return id;
      }
      seen.add(id + (info == null ? " (no backup.info)" : " (" + info.status() + ")"));
    }
    throw new ArchiveException("server " + server + " has no completed backup in " + bucket.root() + "/" + backups
        + (seen.isEmpty() ? "" : ": it has " + String.join(", ", seen)));
  }

  /** The id of the backup named {@code name} (barman-cloud-backup --name), as barman/utils.py, get_backup_info_from_name finds it. */
  private static String named(FileStore bucket, String backups, String server, String name) throws IOException {
    List<String> matching = new ArrayList<>();
    for (String id : ids(bucket, backups)) {
      BarmanBackupInfo info = info(bucket, backups + "/" + id);
      if (info != null && name.equals(info.name())) {
        matching.add(id);
      }
    }
    if (matching.size() != 1) {
      throw new ArchiveException("server " + server + " has " + (matching.isEmpty() ? "no backup " + name
          + " (neither an id nor a name) in " + bucket.root() + "; it has " + String.join(", ", ids(bucket, backups))
          : matching.size() + " backups named " + name + ": " + String.join(", ", matching) + "; give the id"));
    }
    return matching.get(0);
  }

  /** The server's backup ids, oldest first. */
  private static List<String> ids(FileStore bucket, String backups) throws IOException {
    return bucket.list(backups).stream().sorted().toList();
  }

  /** The backup.info in {@code dir}, or null when there is none. */
  private static BarmanBackupInfo info(FileStore bucket, String dir) throws IOException {
    String path = dir + "/" + INFO;
    return bucket.length(path) < 0 ? null : BarmanBackupInfo.parse(bucket.readAll(path), bucket.root() + "/" + path);
  }

  /** ", it holds backups of servers a, b" for the servers under the URL, or why there are none. */
  private static String servers(FileStore bucket) throws IOException {
    List<String> servers = new ArrayList<>();
    for (String name : bucket.list("")) {
      if (bucket.isDirectory(name + "/" + BASE)) {
        servers.add(name);
      }
    }
    return servers.isEmpty() ? ": it holds no Barman Cloud backups (give the URL barman-cloud-backup was given)"
        : "; it holds backups of " + String.join(", ", servers.stream().sorted().toList());
  }

  /**
   * The archives of the backup in {@code dir}: data.tar and its parts, each tablespace's; one
   * listed in backup.info missing, or one in a compression Barman does not write, is an error.
   */
  private static List<TarFileStore.Archive> archives(FileStore bucket, String dir, BarmanBackupInfo info, String id)
      throws IOException {
    Map<String, TarFileStore.Archive> byName = new TreeMap<>();
    for (String name : bucket.list(dir)) {
      Matcher m = ARCHIVE.matcher(name);
      if (m.matches()) {
        Compression compression = compressionOf(m.group(3), bucket.root() + "/" + dir + "/" + name);
        String prefix = m.group(1).equals(DATA) ? "" : "pg_tblspc/" + m.group(1) + "/";
        byName.put(name, new TarFileStore.Archive(dir + "/" + name, compression, prefix));
      }
    }
    List<String> wanted = new ArrayList<>(List.of(DATA));
    info.tablespaces().forEach(oid -> wanted.add(Long.toString(oid)));
    for (String archive : wanted) {
      if (byName.keySet().stream().noneMatch(n -> n.startsWith(archive + ".tar"))) {
        throw new ArchiveException("backup " + id + " has no " + archive + ".tar (nor .tar.gz, .tar.bz2, .tar.snappy) "
            + "in " + bucket.root() + "/" + dir + (archive.equals(DATA) ? "" : ", the archive of tablespace " + archive)
            + ": the backup is incomplete");
      }
    }
    return new ArrayList<>(byName.values());
  }

  /** The compression an archive's suffix after ".tar" names ({@code null}: none). */
  private static Compression compressionOf(String suffix, String archive) throws ArchiveException {
    String given = suffix == null ? "" : suffix;
    return WRITTEN.stream().filter(c -> c.suffix().equals(given)).findFirst().orElseThrow(
        () -> new ArchiveException(archive + ": compressed as " + given + ", which this tool does not read "
            + "(barman-cloud-backup writes .gz, .bz2 and .snappy)"));
  }
}
