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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * pgBackRest repositories read in place, no restore, made by a real pgBackRest (Debian's) from a
 * running PostgreSQL 15 with the {@link BloatScenario}: one repository with
 * {@code compress-type=none} holding a full backup, then a differential and an incremental one
 * after more churn (each later one holds only what changed and references the earlier ones), and
 * one with {@code compress-type=zst} and {@code repo-bundle} (small files stored together in
 * bundles, each compressed alone) holding a full and an incremental backup. The truth of each
 * backup is {@code pgstattuple()} on a real {@code pgbackrest restore} of it (recovered to its
 * consistency point), so the tool's full scan of the repository, naming that backup, must print
 * it for every relation. Also: a sample of the uncompressed repository reads no more bytes than
 * of the data directory; a damaged manifest falls back to its copy, and with both damaged, or a
 * referenced backup gone, or an encrypted repository, the run is one line and exit 1.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PgBackRestRepositoryTest {
  private static final Artifacts ARTIFACTS = Artifacts.under("pgbackrest");
  private static final String STANZA = "bloat";
  private static final Pattern LABEL = Pattern.compile("(?m)^\\s*(full|diff|incr) backup: (\\S+)");

  /** More dead tuples, and rows grown and moved, after the full backup and again after the differential. */
  private static final List<String> CHURN = List.of("""
      DELETE FROM plain WHERE id % 7 = 0;
      UPDATE hot SET n = n + 1 WHERE id % 4 = 0;
      """, """
      DELETE FROM plain WHERE id % 11 = 0;
      INSERT INTO one_row VALUES (2, 'two');
      """);

  private PostgresCluster pg;
  private Path work;
  /** repository name ("none", "zst") → its pgBackRest configuration file. */
  private final Map<String, Path> configs = new LinkedHashMap<>();
  /** "none full", "none diff", "none incr", "zst full", "zst incr" → the backup's label. */
  private final Map<String, String> labels = new LinkedHashMap<>();
  /** the same keys → pgstattuple on a restore of that backup. */
  private final Map<String, List<Map<String, String>>> truths = new LinkedHashMap<>();

  @BeforeAll
  void buildClusterAndBackUp() throws IOException {
    PostgresCluster.assumeServer();
    Requirement.require(Files.isExecutable(Path.of("/usr/bin/pgbackrest")) ? ""
        : "pgbackrest not found in /usr/bin (Debian's pgbackrest package; .ci/run installs it)");
    pg = PostgresCluster.builder().dataChecksums(true).setting("wal_level", "replica")
        .setting("max_wal_senders", "4").init();
    work = pg.newServerDirectory("pgbackrest");
    for (String compression : List.of("none", "zst")) {
      Path repo = pg.newServerDirectory("repo-" + compression);
      Path config = work.resolve(compression + ".conf");
      Files.writeString(config, """
          [global]
          repo1-path=%s
          compress-type=%s
          start-fast=y
          archive-copy=y
          log-level-console=warn
          log-level-file=off
          lock-path=%s
          repo1-retention-full=9
          repo1-bundle=%s

          [%s]
          pg1-path=%s
          pg1-socket-path=%s
          pg1-port=%d
          """.formatted(repo, compression, work, compression.equals("zst") ? "y" : "n", STANZA, pg.dataDir(),
              pg.socketDir(), pg.port()),
          StandardCharsets.UTF_8);
      configs.put(compression, config);
    }
    pg.setting("archive_mode", "on");
    pg.setting("archive_command", "'" + String.join(" && ", configs.values().stream()
        .map(c -> "pgbackrest --config=" + c + " --stanza=" + STANZA + " archive-push %p").toList()) + "'");
    pg.start();
    BloatScenario.build(pg);
    for (Path config : configs.values()) {
      pgbackrest(config, "stanza-create");
    }
    backUp("none", "full");
    backUp("zst", "full");
    pg.psql("postgres", CHURN.get(0));
    backUp("none", "diff");
    pg.psql("postgres", CHURN.get(1));
    backUp("none", "incr");
    backUp("zst", "incr");
    pg.stop();
    for (String backup : labels.keySet()) {
      truths.put(backup, restoredTruth(backup));
      ARTIFACTS.write("expected-" + backup.replace(' ', '-') + ".csv", Report.toCsv(truths.get(backup)));
    }
  }

  private String pgbackrest(Path config, String... args) {
    List<String> command = new ArrayList<>(List.of("pgbackrest", "--config=" + config, "--stanza=" + STANZA));
    command.addAll(List.of(args));
    return pg.runAsServerUser(command.toArray(String[]::new));
  }

  /** Takes a backup of {@code type} into the repository and notes its label. */
  private void backUp(String repository, String type) {
    pgbackrest(configs.get(repository), "backup", "--type=" + type);
    Matcher m = LABEL.matcher(pgbackrest(configs.get(repository), "info"));
    String label = null;
    while (m.find()) {
      label = m.group(2); // the last one listed is the newest
    }
    labels.put(repository + " " + type, label);
  }

  /** pgstattuple on a real restore of {@code backup}, recovered only to its consistency point. */
  private List<Map<String, String>> restoredTruth(String backup) {
    Path config = configs.get(backup.split(" ")[0]);
    return Truth.ofPgBackRestRestore(pg, "restore-" + backup.replace(' ', '-'), labels.get(backup),
        args -> pgbackrest(config, args));
  }

  @AfterAll
  void closeCluster() {
    if (pg != null) {
      pg.close();
    }
  }

  private String address(String backup) {
    String repository = backup.split(" ")[0];
    return "pgbackrest:" + pg.baseDir().resolve("repo-" + repository) + "?stanza=" + STANZA + "&set="
        + labels.get(backup);
  }

  @Test
  void theZstRepositoryBundlesItsSmallFiles() throws IOException {
    Path backup = pg.baseDir().resolve("repo-zst").resolve("backup").resolve(STANZA).resolve(labels.get("zst full"));
    assertTrue(Files.isDirectory(backup.resolve("bundle")), "a bundle directory in " + backup);
    assertTrue(Files.readString(backup.resolve("backup.manifest")).contains("\"bni\":"), "files in bundles");
  }

  @Test
  void theLaterBackupsHoldOnlyWhatChanged() throws IOException {
    Path repo = pg.baseDir().resolve("repo-none").resolve("backup").resolve(STANZA);
    long full = bytesUnder(repo.resolve(labels.get("none full")));
    long incr = bytesUnder(repo.resolve(labels.get("none incr")));
    assertTrue(incr < full / 2, "the incremental backup holds " + incr + " bytes, the full one " + full);
    String manifest = Files.readString(repo.resolve(labels.get("none incr")).resolve("backup.manifest"));
    assertTrue(manifest.contains("\"reference\":\"" + labels.get("none full") + "\""), "files of the full backup");
    assertTrue(manifest.contains("\"reference\":\"" + labels.get("none diff") + "\""), "files of the differential");
    assertFalse(truths.get("none full").equals(truths.get("none incr")), "the churn changed the truth");
  }

  private static long bytesUnder(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    }
  }

  @Test
  void fullScanOfEachBackupMatchesPgstattupleOnItsRestore() throws IOException {
    List<String> failures = new ArrayList<>();
    for (String backup : labels.keySet()) {
      ToolRun run = ARTIFACTS.fullScanCsv(backup.replace(' ', '-'), address(backup));
      List<String> problems = new ArrayList<>();
      if (run.status() != 0) {
        problems.add("exit code " + run.status() + "; stderr:\n" + run.err());
      }
      problems.addAll(Report.differences(truths.get(backup), run.out()));
      if (!problems.isEmpty()) {
        failures.add(backup + " (" + labels.get(backup) + "): " + problems.size() + " difference(s) over "
            + truths.get(backup).size() + " relations:\n  "
            + String.join("\n  ", problems.subList(0, Math.min(problems.size(), 40))));
      }
    }
    if (!failures.isEmpty()) {
      fail(String.join("\n", failures) + "\nsee " + ARTIFACTS.dir().toAbsolutePath());
    }
  }

  /** The same sample reads no more bytes of the uncompressed repository than of the data directory. */
  @Test
  void aSampleOfTheRepositoryReadsNoMoreThanOfTheDirectory() throws IOException {
    long fromRepository = BackupChecks.sampledBytes(address("none incr"), ARTIFACTS.file("sample-repository.json"));
    long fromDirectory = BackupChecks.sampledBytes(pg.dataDir().toString(), ARTIFACTS.file("sample-directory.json"));
    assertTrue(fromRepository > 0 && fromRepository <= fromDirectory, "bytes read: repository " + fromRepository
        + ", directory " + fromDirectory);
  }


  /**
   * A manifest with a byte changed is read from its copy, as pgBackRest reads it; with both
   * changed, or with the full backup an incremental one refers to deleted, the run is one line
   * naming the file or the backup, and exit 1.
   */
  @Test
  void aDamagedRepositoryIsOneLineAndExitOne() throws IOException {
    Path copy = pg.baseDir().resolve("damaged-repo");
    DirectoryTrees.copy(pg.baseDir().resolve("repo-none"), copy);
    Path backups = copy.resolve("backup").resolve(STANZA);
    String incr = labels.get("none incr");
    String dataDir = "pgbackrest:" + copy + "?set=" + incr;
    Path manifest = backups.resolve(incr).resolve("backup.manifest");
    damage(manifest);
    ToolRun fromCopy = ToolRun.of("analyze", "--data-dir", dataDir, "--full-scan", "--format", "csv",
        "--master", "local[1]");
    assertEquals(0, fromCopy.status(), "the manifest's copy stands in: " + fromCopy.describe());

    damage(backups.resolve(incr).resolve("backup.manifest.copy"));
    BackupChecks.expectOneLine(dataDir, "backup.manifest", "checksum");

    Files.copy(backups.resolve(labels.get("none diff")).resolve("backup.manifest"), manifest,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING); // a whole manifest again, then the full backup gone
    Files.copy(backups.resolve(labels.get("none diff")).resolve("backup.manifest"),
        backups.resolve(incr).resolve("backup.manifest.copy"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    DirectoryTrees.delete(backups.resolve(labels.get("none full")));
    BackupChecks.expectOneLine(dataDir, labels.get("none full"), "not in");
  }

  /** An encrypted repository is refused in one line naming the option. */
  @Test
  void anEncryptedRepositoryIsRefused() throws IOException {
    Path repo = pg.newServerDirectory("repo-encrypted");
    Path config = work.resolve("encrypted.conf");
    Files.writeString(config, Files.readString(configs.get("none"), StandardCharsets.UTF_8)
        .replace("repo1-path=" + pg.baseDir().resolve("repo-none"), "repo1-path=" + repo
            + "\nrepo1-cipher-type=aes-256-cbc\nrepo1-cipher-pass=not-a-secret"), StandardCharsets.UTF_8);
    pgbackrest(config, "stanza-create", "--no-online");
    BackupChecks.expectOneLine("pgbackrest:" + repo, "encrypted", "repo-cipher-type");
  }

  /** One file's size changed by a digit: still well-formed, so only the checksum can tell. */
  private static void damage(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    int at = text.indexOf("\"size\":", text.length() / 2) + "\"size\":".length();
    char digit = text.charAt(at);
    assertTrue(Character.isDigit(digit), "a size in " + file);
    Files.writeString(file, text.substring(0, at) + (digit == '9' ? '1' : (char) (digit + 1)) + text.substring(at + 1),
        StandardCharsets.UTF_8);
  }

}
