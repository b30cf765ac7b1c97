package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pgbloat.testing.Artifacts;
import io.pgbloat.testing.DirectoryTrees;
import io.pgbloat.testing.PostgresCluster;
import io.pgbloat.testing.Requirement;
import io.pgbloat.testing.ToolRun;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Backups read in place, no restore: the scenario of {@link BloatScenario} (a tablespace, TOAST,
 * prepared transactions, dead tuples under a horizon pin) on a running PostgreSQL 15 with
 * {@code wal_level} replica, its truth taken by {@code pgstattuple()}, then a real
 * {@code pg_basebackup -Ft -X stream} (base.tar, the tablespace's &lt;oid&gt;.tar, pg_wal.tar),
 * the truth taken again (nothing wrote between), and the truth of a real restore of the backup
 * (unpacked as the documentation says, recovered by the server). The two truths differ only
 * where a restore must differ: an unlogged table, whose main fork a backup leaves out, is empty
 * after recovery. The tool's full scan of the archive directory must print the restore's truth
 * for every relation; a sample of it must read no more bytes than the same sample of the data
 * directory; a damaged archive is one line and exit 1.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BaseBackupArchivesTest {
  private static final Artifacts ARTIFACTS = Artifacts.under("backups");

  /** The compressed forms, each a backup of its own taken beside the plain one, nothing written between. */
  private static final Map<String, List<String>> COMPRESSED_FORMS = Map.of(
      "tar-gzip", List.of("-z"),
      "tar-server-lz4", List.of("--compress=server-lz4"),
      "tar-client-zstd", List.of("--compress=client-zstd"));

  private PostgresCluster pg;
  private Path tarBackup;
  /** pgstattuple on the server while the backup was taken. */
  private List<Map<String, String>> serverTruth;
  /** pgstattuple on a restore of the backup: what the tool must print. */
  private List<Map<String, String>> truth;

  @BeforeAll
  void buildClusterAndBackUp() throws IOException {
    PostgresCluster.assumeServer();
    Requirement.require(Files.isExecutable(PostgresCluster.binDir().resolve("pg_basebackup")) ? ""
        : "pg_basebackup not found in " + PostgresCluster.binDir());
    pg = PostgresCluster.builder().dataChecksums(true).setting("wal_level", "replica")
        .setting("max_wal_senders", "4").init();
    pg.start();
    BloatScenario.build(pg);
    serverTruth = Truth.take(pg);
    tarBackup = pg.baseDir().resolve("tar");
    pg.pgBasebackup(tarBackup, "-Ft", "-X", "stream");
    for (Map.Entry<String, List<String>> form : COMPRESSED_FORMS.entrySet()) {
      List<String> args = new ArrayList<>(List.of("-Ft", "-X", "stream"));
      args.addAll(form.getValue());
      pg.pgBasebackup(pg.baseDir().resolve(form.getKey()), args.toArray(String[]::new));
    }
    List<Map<String, String>> after = Truth.take(pg);
    pg.stop();
    assertEquals(serverTruth, after, "pgstattuple changed while pg_basebackup ran: the backup no longer describes it");
    try (PostgresCluster restored = PostgresCluster.onTarBackup(tarBackup)) {
      restored.start();
      truth = Truth.take(restored);
    }
    ARTIFACTS.write("expected-server.csv", Report.toCsv(serverTruth));
    ARTIFACTS.write("expected-restore.csv", Report.toCsv(truth));
  }

  @AfterAll
  void closeCluster() {
    if (pg != null) {
      pg.close();
    }
  }

  @Test
  void theBackupHoldsEveryArchive() throws IOException {
    try (Stream<Path> files = Files.list(tarBackup)) {
      List<String> names = files.map(p -> p.getFileName().toString()).sorted().toList();
      assertTrue(names.contains("base.tar") && names.contains("pg_wal.tar"), names.toString());
      assertTrue(names.stream().anyMatch(n -> n.matches("[0-9]+\\.tar")), "a tablespace's archive: " + names);
      assertFalse(names.contains("PG_VERSION"), names.toString());
    }
    assertTrue(truth.stream().anyMatch(r -> r.get("relpath").startsWith("pg_tblspc/")), "a table in the tablespace");
  }

  /** The restore's truth is the server's, but for the unlogged table a backup leaves out. */
  @Test
  void theRestoreDiffersFromTheServerOnlyByTheUnloggedTable() {
    List<String> differing = Report.differences(serverTruth, Report.toCsv(truth)).stream()
        .map(line -> line.substring(0, line.indexOf(':', line.indexOf(':') + 1))).distinct().toList();
    assertEquals(List.of("postgres:public.unlogged"), differing);
    Map<String, String> unlogged = truth.stream().filter(r -> r.get("relname").equals("unlogged")).findFirst()
        .orElseThrow();
    assertEquals("0", unlogged.get("table_len"), "recovery resets an unlogged table to its init fork");
  }

  @Test
  void fullScanOfTheTarBackupMatchesPgstattuple() throws IOException {
    expectTruth("tar", tarBackup);
  }

  /**
   * A compressed archive (gzip by the client, lz4 by the server, zstd by the client) is decoded
   * as it is read, in archive order, and gives the same figures as the plain one.
   */
  @Test
  void fullScanOfEachCompressedBackupMatchesPgstattuple() throws IOException {
    for (String form : COMPRESSED_FORMS.keySet()) {
      Path dir = pg.baseDir().resolve(form);
      try (Stream<Path> files = Files.list(dir)) {
        assertTrue(files.anyMatch(f -> f.getFileName().toString().matches("base\\.tar\\.(gz|lz4|zst)")), form);
      }
      expectTruth(form, dir);
    }
  }

  private void expectTruth(String form, Path dir) throws IOException {
    ToolRun run = ARTIFACTS.fullScanCsv(form, dir.toString());
    List<String> problems = new ArrayList<>();
    if (run.status() != 0) {
      problems.add("exit code " + run.status() + "; stderr:\n" + run.err());
    }
    problems.addAll(Report.differences(truth, run.out()));
    if (!problems.isEmpty()) {
      fail(form + " backup: " + problems.size() + " difference(s) from pgstattuple over " + truth.size()
          + " relations; see " + ARTIFACTS.dir().toAbsolutePath() + "\n  "
          + String.join("\n  ", problems.subList(0, Math.min(problems.size(), 100))));
    }
    assertTrue(run.err().contains("not shut down cleanly"), "a backup's pg_control is of a running server: "
        + run.err());
  }

  /** The same sample (seed, size) reads no more bytes of the archives than of the data directory. */
  @Test
  void aSampleOfTheArchivesReadsNoMoreThanOfTheDirectory() throws IOException {
    long fromArchives = BackupChecks.sampledBytes(tarBackup.toString(), ARTIFACTS.file("sample-tar.json"));
    long fromDirectory = BackupChecks.sampledBytes(pg.dataDir().toString(), ARTIFACTS.file("sample-dir.json"));
    assertTrue(fromArchives > 0 && fromArchives <= fromDirectory, "bytes read: archives " + fromArchives
        + ", directory " + fromDirectory);
  }


  /** A truncated archive, and a header whose checksum is wrong: one line naming it, exit 1. */
  @Test
  void aDamagedArchiveIsOneLineAndExitOne() throws IOException {
    Path truncated = copyOfBackup("truncated");
    try (RandomAccessFile base = new RandomAccessFile(truncated.resolve("base.tar").toFile(), "rw")) {
      base.setLength(base.length() / 2 + 100); // inside some member, not on a header
    }
    BackupChecks.expectOneLine(truncated.toString(), "base.tar: member ", "it is truncated");

    Path badHeader = copyOfBackup("bad-header");
    try (RandomAccessFile base = new RandomAccessFile(badHeader.resolve("base.tar").toFile(), "rw")) {
      base.seek(0); // the first member's name
      base.write('X');
    }
    BackupChecks.expectOneLine(badHeader.toString(), "base.tar at byte 0", "checksum is wrong");

    Path truncatedGzip = copyOf(pg.baseDir().resolve("tar-gzip"), "truncated-gzip");
    try (RandomAccessFile base = new RandomAccessFile(truncatedGzip.resolve("base.tar.gz").toFile(), "rw")) {
      base.setLength(base.length() / 2);
    }
    BackupChecks.expectOneLine(truncatedGzip.toString(), "base.tar.gz", "truncated");
  }

  private Path copyOfBackup(String name) {
    return copyOf(tarBackup, name);
  }

  private Path copyOf(Path backup, String name) {
    Path copy = pg.baseDir().resolve("damaged-" + name);
    DirectoryTrees.copy(backup, copy);
    return copy;
  }

}
