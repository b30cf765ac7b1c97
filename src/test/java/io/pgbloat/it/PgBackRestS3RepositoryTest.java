package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.testing.Artifacts;
import io.pgbloat.testing.PgBackRestS3Repository;
import io.pgbloat.testing.PostgresCluster;
import io.pgbloat.testing.Requirement;
import io.pgbloat.testing.S3Server;
import io.pgbloat.testing.ToolRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pgBackRest repository of type s3, written by a real pgBackRest into {@link S3Server} over
 * HTTPS while PostgreSQL 15 runs the {@link BloatScenario} (WAL archived into it too), lies in the
 * bucket's directory as a local repository does: the tool's full scan of that directory, as a
 * {@code pgbackrest:} address, prints pgstattuple's figures on a real {@code pgbackrest restore} of
 * the backup from the bucket (recovered to its consistency point; an unlogged table comes back
 * empty, as pgBackRest keeps only its init fork).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PgBackRestS3RepositoryTest {
  private static final Artifacts ARTIFACTS = Artifacts.under("pgbackrest-s3");
  private static final String STANZA = "demo";

  private PostgresCluster pg;
  private S3Server s3;
  private PgBackRestS3Repository repository;
  private String label;
  private List<Map<String, String>> truth;

  @BeforeAll
  void backUpIntoS3(@TempDir Path work) {
    PostgresCluster.assumeServer();
    Requirement.require(Files.isExecutable(Path.of("/usr/bin/pgbackrest")) ? ""
        : "pgbackrest not found in /usr/bin (Debian's pgbackrest package; .ci/run installs it)");
    s3 = S3Server.start(work);
    pg = PostgresCluster.builder().dataChecksums(true).setting("wal_level", "replica")
        .setting("max_wal_senders", "4").init();
    repository = PgBackRestS3Repository.configure(pg, s3, "backups", STANZA,
        Map.of("compress-type", "zst", "repo1-bundle", "y"));
    pg.setting("archive_mode", "on");
    pg.setting("archive_command", repository.archiveCommand());
    pg.start();
    BloatScenario.build(pg);
    repository.createStanza();
    label = repository.backUp("full");
    pg.stop();
    truth = Truth.ofPgBackRestRestore(pg, "restore", label, repository::pgbackrest);
    ARTIFACTS.write("expected.csv", Report.toCsv(truth));
  }

  @AfterAll
  void close() {
    if (pg != null) {
      pg.close();
    }
    if (s3 != null) {
      s3.close();
    }
  }

  @Test
  void theBucketHoldsTheRepositoryAsALocalOne() {
    Path backup = repository.localDirectory().resolve("backup").resolve(STANZA).resolve(label);
    assertTrue(Files.isRegularFile(backup.resolve("backup.manifest")), "a manifest in " + backup);
    assertTrue(Files.isDirectory(backup.resolve("bundle")), "bundles in " + backup);
    assertTrue(Files.isDirectory(repository.localDirectory().resolve("archive").resolve(STANZA)), "the WAL archive");
  }

  @Test
  void fullScanOfTheBucketDirectoryMatchesPgstattuple() {
    ToolRun run = ARTIFACTS.fullScanCsv("local", "pgbackrest:" + repository.localDirectory() + "?stanza=" + STANZA);
    assertEquals(0, run.status(), run.describe());
    assertEquals(List.of(), Report.differences(truth, run.out()), "see " + ARTIFACTS.dir().toAbsolutePath());
  }
}
