package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pgbloat.io.FileStores;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.io.store.StoreSettings;
import io.pgbloat.testing.Artifacts;
import io.pgbloat.testing.DirectoryTrees;
import io.pgbloat.testing.PostgresCluster;
import io.pgbloat.testing.Requirement;
import io.pgbloat.testing.S3Server;
import io.pgbloat.testing.S3ToolRun;
import io.pgbloat.testing.ToolRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Barman Cloud backups read in place, no restore: a running PostgreSQL 15 with the
 * {@link BloatScenario} (a tablespace, TOAST, an unlogged table, prepared transactions), its
 * truth taken by {@code pgstattuple()}, then backed up by the real {@code barman-cloud-backup}
 * (Debian's barman-cli-cloud) into {@link S3Server} (S3Proxy, a real S3 server over a directory,
 * in this JVM) over plain HTTP, four times: uncompressed with a small {@code --max-archive-size}
 * (so data.tar goes on in data_0001.tar...), {@code --gzip}, {@code --bzip2} and
 * {@code --snappy}, the truth taken again after (nothing
 * wrote between), and its WAL archived by {@code barman-cloud-wal-archive}. The truth of a
 * backup is {@code pgstattuple()} on a real {@code barman-cloud-restore} of it, recovered by the
 * server with {@code barman-cloud-wal-restore} to its consistency point: the server's, but for
 * the unlogged table, which recovery resets to its init fork. The tool reads each backup twice,
 * and each full scan must print the restore's truth for every relation: from the bucket itself
 * through S3A ({@code barman:s3a://<bucket>/<prefix>?server=NAME&backup=NAME}, configured by
 * {@code --conf spark.hadoop.fs.s3a.*} alone), asking the store for nothing but reads; and, as
 * S3Proxy keeps each object as a file under its directory, from that copy of the bucket
 * ({@code barman:<dir>/<prefix>?server=NAME&backup=NAME}). Also: the newest completed backup is
 * the default; a wrong server, a wrong backup, a backup whose status is FAILED are one line each
 * and exit 1.
 *
 * <p>Debian 12's python3-snappy computes its chunks' CRC-32C in a C function that fails on
 * Python 3.11 (PY_SSIZE_T_CLEAN), so every {@code --snappy} backup fails there; this test runs
 * barman-cloud-backup with that one function given in Python ({@link #SNAPPY_CRC_IN_PYTHON}),
 * the compression and the framing still python-snappy's own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BarmanCloudBackupTest {
  private static final Artifacts ARTIFACTS = Artifacts.under("barman");
  private static final Path BARMAN_CLOUD_BACKUP = Path.of("/usr/bin/barman-cloud-backup");
  private static final Path SYSTEM_PYTHON = Path.of("/usr/bin/python3");
  private static final String SERVER = "bloat";
  private static final String BUCKET = "barman-cloud";
  private static final String PREFIX = "cloud";

  /** Backup name (barman-cloud-backup --name) → its options; taken in this order. */
  private static final Map<String, List<String>> BACKUPS = new LinkedHashMap<>();

  static {
    BACKUPS.put("plain-parts", List.of("--max-archive-size", "4MB"));
    BACKUPS.put("gzip", List.of("--gzip"));
    BACKUPS.put("bzip2", List.of("--bzip2"));
    BACKUPS.put("snappy", List.of("--snappy"));
  }

  /** barman-cloud-backup's own main, python-snappy's _crc32c replaced by CRC-32C (Castagnoli, reflected) in Python. */
  private static final String SNAPPY_CRC_IN_PYTHON = """
      import sys
      import snappy.snappy
      TABLE = []
      for n in range(256):
          c = n
          for _ in range(8):
              c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
          TABLE.append(c)
      def crc32c(data):
          crc = 0xFFFFFFFF
          for b in data:
              crc = TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
          return crc ^ 0xFFFFFFFF
      snappy.snappy._crc32c = crc32c
      from barman.clients.cloud_backup import main
      main()
      """;

  private PostgresCluster pg;
  private S3Server s3;
  /** pgstattuple on the server while the backups were taken. */
  private List<Map<String, String>> serverTruth;
  /** pgstattuple on a restore of the gzip backup: what the tool must print for each. */
  private List<Map<String, String>> truth;
  /** Backup name → its id (the directory under base/). */
  private final Map<String, String> ids = new LinkedHashMap<>();

  @BeforeAll
  void buildClusterAndBackUp() throws IOException {
    PostgresCluster.assumeServer();
    Requirement.require(Files.isExecutable(BARMAN_CLOUD_BACKUP) ? ""
        : BARMAN_CLOUD_BACKUP + " not found (Debian's barman-cli-cloud package; .ci/run installs it)");
    Requirement.require(Files.isDirectory(Path.of("/usr/lib/python3/dist-packages/snappy")) ? ""
        : "python-snappy not found for " + SYSTEM_PYTHON + " (Debian's python3-snappy; .ci/run installs it)");
    pg = PostgresCluster.builder().dataChecksums(true).setting("wal_level", "replica").init();
    s3 = S3Server.start(pg.baseDir().resolve("s3"));
    s3.createBucket(BUCKET);
    pg.setting("archive_mode", "on");
    pg.setting("archive_command", barmanSetting("barman-cloud-wal-archive", bucketUrl("s3"), SERVER, "%p"));
    pg.start();
    BloatScenario.build(pg);
    serverTruth = Truth.take(pg);
    for (Map.Entry<String, List<String>> backup : BACKUPS.entrySet()) {
      backUp(backup.getKey(), backup.getValue());
    }
    List<Map<String, String>> after = Truth.take(pg);
    pg.stop(); // its shutdown archives the last WAL the backups need
    assertEquals(serverTruth, after, "pgstattuple changed while the backups ran: they no longer describe it");
    truth = restoredTruth("gzip");
    ARTIFACTS.write("expected-server.csv", Report.toCsv(serverTruth));
    ARTIFACTS.write("expected-restore.csv", Report.toCsv(truth));
  }

  @AfterAll
  void closeAll() {
    if (s3 != null) {
      s3.close();
    }
    if (pg != null) {
      pg.close();
    }
  }

  /** The backups' URL with {@code scheme}: s3 as Barman spells it, s3a as Hadoop's connector reads it. */
  private static String bucketUrl(String scheme) {
    return scheme + "://" + BUCKET + "/" + PREFIX;
  }

  /** The environment Barman's commands need: the server's credentials (boto3 reads them from there). */
  private static final List<String> BARMAN_ENVIRONMENT = List.of("env", "AWS_ACCESS_KEY_ID=" + S3Server.ACCESS_KEY,
      "AWS_SECRET_ACCESS_KEY=" + S3Server.SECRET_KEY, "AWS_DEFAULT_REGION=" + S3Server.REGION);

  /** A Barman Cloud command line: its environment, the command, the provider and the server, then {@code args}. */
  private List<String> barmanCommand(List<String> command, String... args) {
    List<String> line = new ArrayList<>(BARMAN_ENVIRONMENT);
    line.addAll(command);
    line.addAll(List.of("--cloud-provider", "aws-s3", "--endpoint-url", s3.endpoint().toString()));
    line.addAll(List.of(args));
    return line;
  }

  /** The same as one line for the server's settings (archive_command, restore_command): no argument has a space. */
  private String barmanSetting(String command, String... args) {
    return "'" + String.join(" ", barmanCommand(List.of(command), args)) + "'";
  }

  private String runBarman(List<String> command, List<String> args) {
    return pg.runAsServerUser(barmanCommand(command, args.toArray(String[]::new)).toArray(String[]::new));
  }

  /** Takes the backup {@code name} with {@code options} and notes its id (the newest directory under base/). */
  private void backUp(String name, List<String> options) throws IOException {
    List<String> args = new ArrayList<>(options);
    args.addAll(List.of("--immediate-checkpoint", "-h", pg.socketDir().toString(), "-p", Integer.toString(pg.port()),
        "-U", PostgresCluster.SUPERUSER, "--name", name, bucketUrl("s3"), SERVER));
    runBarman(name.equals("snappy") ? List.of(SYSTEM_PYTHON.toString(), "-c", SNAPPY_CRC_IN_PYTHON)
        : List.of(BARMAN_CLOUD_BACKUP.toString()), args);
    List<String> known = backupIds();
    String id = known.get(known.size() - 1);
    assertTrue(!ids.containsValue(id), "a new backup directory for " + name + ": " + known);
    ids.put(name, id);
  }

  /** The server's backup ids in the bucket's directory, oldest first. */
  private List<String> backupIds() throws IOException {
    try (Stream<Path> dirs = Files.list(backupsDir())) {
      return dirs.map(d -> d.getFileName().toString()).sorted().toList();
    }
  }

  private Path prefixDir() {
    return s3.bucketDirectory(BUCKET).resolve(PREFIX);
  }

  private Path backupsDir() {
    return prefixDir().resolve(SERVER).resolve("base");
  }

  /** Backup {@code backup} of the bucket's directory. */
  private String address(String backup) {
    return address(prefixDir().toString(), backup);
  }

  /** Backup {@code backup} (the newest completed one if null) of the server's backups under {@code url}. */
  private static String address(String url, String backup) {
    return "barman:" + url + "?server=" + SERVER + (backup == null ? "" : "&backup=" + backup);
  }

  /** pgstattuple on a real barman-cloud-restore of {@code name}, recovered with barman-cloud-wal-restore. */
  private List<Map<String, String>> restoredTruth(String name) throws IOException {
    Path target = pg.newServerDirectory("restore-" + name);
    Path tablespace = pg.newServerDirectory("restore-" + name + "-scratch");
    runBarman(List.of("barman-cloud-restore"), List.of("--tablespace", "scratch:" + tablespace, bucketUrl("s3"), SERVER,
        ids.get(name), target.toString()));
    Files.createFile(target.resolve("recovery.signal"));
    try (PostgresCluster restored = PostgresCluster.onDataDirectory(target)) {
      restored.setting("restore_command", barmanSetting("barman-cloud-wal-restore", bucketUrl("s3"), SERVER, "%f",
          "%p"));
      restored.setting("recovery_target", "'immediate'");
      restored.setting("recovery_target_action", "'promote'");
      restored.setting("archive_mode", "off");
      restored.start();
      restored.awaitEndOfRecovery();
      return Truth.take(restored);
    }
  }

  /** The restore's truth is the server's, but for the unlogged table, which recovery resets. */
  @Test
  void theRestoreDiffersFromTheServerOnlyByTheUnloggedTable() {
    List<String> differing = Report.differences(serverTruth, Report.toCsv(truth)).stream()
        .map(line -> line.substring(0, line.indexOf(':', line.indexOf(':') + 1))).distinct().toList();
    assertEquals(List.of("postgres:public.unlogged"), differing);
  }

  /** What Barman wrote: a tablespace's archive, data.tar in parts, each compression's suffix, backup_label in data.tar. */
  @Test
  void theBackupsAreBarmansLayout() throws IOException {
    assertTrue(Files.isRegularFile(backupsDir().resolve(ids.get("plain-parts")).resolve("data_0001.tar")),
        "data.tar goes on in data_0001.tar");
    for (String suffix : List.of("gz", "bz2", "snappy")) {
      String name = suffix.equals("gz") ? "gzip" : suffix.equals("bz2") ? "bzip2" : suffix;
      Path dir = backupsDir().resolve(ids.get(name));
      assertTrue(Files.isRegularFile(dir.resolve("data.tar." + suffix)), dir.toString());
      try (Stream<Path> files = Files.list(dir)) {
        assertTrue(files.anyMatch(f -> f.getFileName().toString().matches("[0-9]+\\.tar\\." + suffix)),
            "a tablespace's archive in " + dir);
      }
    }
    try (FileStore backup = FileStores.open(address("gzip"))) {
      String label = new String(backup.readAll("backup_label"), StandardCharsets.US_ASCII);
      assertTrue(label.contains("LABEL: Barman backup"), label);
      assertTrue(backup.length("global/pg_control") > 0 && backup.length("PG_VERSION") > 0, "pg_control, PG_VERSION");
    }
  }

  @Test
  void fullScanOfEachBackupMatchesPgstattupleOnItsRestore() {
    assertEachBackup(name -> problemsOf(ARTIFACTS.fullScanCsv(name, address(name))));
  }

  /** The same read from the bucket through S3A, which is asked only to read. */
  @Test
  void fullScanOfEachBackupThroughS3aMatchesPgstattupleOnItsRestore() {
    assertEachBackup(name -> {
      S3ToolRun s3a = S3ToolRun.of(s3, conf -> ARTIFACTS.fullScanCsv("s3a-" + name, address(bucketUrl("s3a"), name),
          conf));
      ARTIFACTS.write("requests-s3a-" + name + ".txt", s3a.cost() + "\n");
      List<String> problems = new ArrayList<>(problemsOf(s3a.run()));
      if (!s3a.readOnly()) {
        problems.add("the store was asked for reads alone, and some: " + s3a.requests());
      }
      return problems;
    });
  }

  /** What differs between a full scan and the restore's truth, or how the run failed. */
  private List<String> problemsOf(ToolRun run) {
    List<String> problems = new ArrayList<>();
    if (run.status() != 0) {
      problems.add("exit code " + run.status() + "; stderr:\n" + run.err());
    }
    problems.addAll(Report.differences(truth, run.out()));
    return problems;
  }

  /** Fails naming each backup of which {@code problemsOfBackup} finds any, with the first 40 of them. */
  private void assertEachBackup(Function<String, List<String>> problemsOfBackup) {
    List<String> failures = new ArrayList<>();
    for (String name : BACKUPS.keySet()) {
      List<String> problems = problemsOfBackup.apply(name);
      if (!problems.isEmpty()) {
        failures.add(name + " (" + ids.get(name) + "): " + problems.size() + " difference(s) over " + truth.size()
            + " relations:\n  " + String.join("\n  ", problems.subList(0, Math.min(problems.size(), 40))));
      }
    }
    if (!failures.isEmpty()) {
      fail(String.join("\n", failures) + "\nsee " + ARTIFACTS.dir().toAbsolutePath());
    }
  }

  /** The same sample reads no more bytes of the uncompressed archives than of the data directory. */
  @Test
  void aSampleOfTheUncompressedBackupReadsNoMoreThanOfTheDirectory() throws IOException {
    long fromBackup = BackupChecks.sampledBytes(address("plain-parts"), ARTIFACTS.file("sample-backup.json"));
    long fromDirectory = BackupChecks.sampledBytes(pg.dataDir().toString(), ARTIFACTS.file("sample-directory.json"));
    assertTrue(fromBackup > 0 && fromBackup <= fromDirectory, "bytes read: backup " + fromBackup + ", directory "
        + fromDirectory);
  }

  /**
   * With no backup named, the newest whose status is DONE: a newer one that FAILED (a copy of the
   * last, its backup.info saying so, as barman-cloud-backup uploads it when a backup fails) is
   * passed over, and naming it is one line.
   */
  @Test
  void theNewestCompletedBackupIsTheDefault() throws IOException {
    Path copy = pg.baseDir().resolve("bucket-with-a-failed-backup");
    DirectoryTrees.copy(prefixDir(), copy);
    String failed = "29991231T235959";
    Path failedDir = copy.resolve(SERVER).resolve("base").resolve(failed);
    DirectoryTrees.copy(copy.resolve(SERVER).resolve("base").resolve(ids.get("snappy")), failedDir);
    Path info = failedDir.resolve("backup.info");
    Files.writeString(info, Files.readString(info, StandardCharsets.UTF_8).replace("status=DONE", "status=FAILED")
        .replace("error=None", "error=failure uploading data (connection reset)"), StandardCharsets.UTF_8);

    ToolRun newest = ARTIFACTS.fullScanCsv("default", "barman:" + copy + "?server=" + SERVER);
    assertEquals(0, newest.status(), newest.describe());
    assertEquals(List.of(), Report.differences(truth, newest.out()));
    try (FileStore chosen = FileStores.open("barman:" + copy + "?server=" + SERVER)) {
      assertTrue(chosen.backupIndex().streamPosition("PG_VERSION").orElseThrow().stream()
          .contains(ids.get("snappy")), "the snappy backup, the newest that completed");
    }
    BackupChecks.expectOneLine("barman:" + copy + "?server=" + SERVER + "&backup=" + failed, failed,
        "has status FAILED (failure uploading data (connection reset)), not DONE");
  }

  /** A server or a backup that is not there: one line naming it, and what there is. */
  @Test
  void aWrongServerOrBackupIsOneLine() {
    BackupChecks.expectOneLine("barman:" + prefixDir() + "?server=nosuch", "no backups of server nosuch",
        "it holds backups of " + SERVER);
    BackupChecks.expectOneLine(address("20000101T000000"), "has no backup 20000101T000000", ids.get("gzip"));
    BackupChecks.expectOneLine(address("nosuch"), "has no backup nosuch", "neither an id nor a name");
  }

  /**
   * The bucket's URL as Barman spells it is read through Hadoop's S3 connector: with no connector,
   * one line naming the package. The connector is on the tests' class path, so its absence is
   * what Hadoop meets without it: {@code fs.s3a.impl} naming a class that is not there, for a
   * bucket of its own.
   */
  @Test
  void aBucketWithoutItsConnectorNamesThePackageToAdd() {
    ToolRun run = ToolRun.of("analyze", "--data-dir", "barman:s3://barman-unserved/" + PREFIX + "?server=" + SERVER,
        "--full-scan", "--master", "local[1]", "--conf", StoreSettings.SPARK_HADOOP_PREFIX
            + "fs.s3a.impl=org.apache.hadoop.fs.s3a.AbsentFileSystem");
    assertEquals(2, run.status(), run.describe());
    assertTrue(run.err().contains("org.apache.hadoop:hadoop-aws:3."), run.describe());
  }
}
