package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.testing.Artifacts;
import io.pgbloat.testing.PgBackRestS3Repository;
import io.pgbloat.testing.PostgresCluster;
import io.pgbloat.testing.Requirement;
import io.pgbloat.testing.S3Server;
import io.pgbloat.testing.S3ToolRun;
import io.pgbloat.testing.ToolRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * pgBackRest repositories of type s3, written by a real pgBackRest into {@link S3Server} over
 * HTTPS while PostgreSQL 15 runs the {@link BloatScenario} (WAL archived into each too), two of
 * them, a bucket each: {@code compress-type=zst} with small files bundled ({@code repo1-bundle}),
 * and {@code compress-type=none}, each holding a full backup. Each is read twice: from its bucket
 * through S3A on the server's plain-HTTP endpoint ({@code pgbackrest:s3a://<bucket>/<repo1-path>},
 * configured by {@code --conf spark.hadoop.fs.s3a.*} alone), asking the store for nothing but
 * reads; and from the bucket's directory, where the objects lie as a local repository's files.
 * Either full scan prints pgstattuple's figures on a real {@code pgbackrest restore} of the backup
 * from the bucket (recovered to its consistency point; an unlogged table comes back empty, as
 * pgBackRest keeps only its init fork), and a sample through S3A is the sample of the directory.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PgBackRestS3RepositoryTest {
  private static final Artifacts ARTIFACTS = Artifacts.under("pgbackrest-s3");
  private static final String STANZA = "demo";
  /** Repository name → the options of its global section; each is in bucket {@code pgbackrest-<name>}. */
  private static final Map<String, Map<String, String>> REPOSITORIES = new LinkedHashMap<>();

  static {
    REPOSITORIES.put("zst-bundled", Map.of("compress-type", "zst", "repo1-bundle", "y"));
    REPOSITORIES.put("none", Map.of("compress-type", "none"));
  }

  private PostgresCluster pg;
  private S3Server s3;
  /** Repository name → the repository, its backup's label, and pgstattuple on a restore of that backup. */
  private final Map<String, PgBackRestS3Repository> repositories = new LinkedHashMap<>();
  private final Map<String, String> labels = new LinkedHashMap<>();
  private final Map<String, List<Map<String, String>>> truths = new LinkedHashMap<>();

  @BeforeAll
  void backUpIntoS3(@TempDir Path work) {
    PostgresCluster.assumeServer();
    Requirement.require(Files.isExecutable(Path.of("/usr/bin/pgbackrest")) ? ""
        : "pgbackrest not found in /usr/bin (Debian's pgbackrest package; .ci/run installs it)");
    s3 = S3Server.start(work);
    pg = PostgresCluster.builder().dataChecksums(true).setting("wal_level", "replica")
        .setting("max_wal_senders", "4").init();
    REPOSITORIES.forEach((name, options) -> repositories.put(name,
        PgBackRestS3Repository.configure(pg, s3, "pgbackrest-" + name, STANZA, options)));
    pg.setting("archive_mode", "on");
    pg.setting("archive_command", PgBackRestS3Repository.archiveCommand(List.copyOf(repositories.values())));
    pg.start();
    BloatScenario.build(pg);
    repositories.values().forEach(PgBackRestS3Repository::createStanza);
    repositories.forEach((name, repository) -> labels.put(name, repository.backUp("full")));
    pg.stop();
    repositories.forEach((name, repository) -> {
      truths.put(name, Truth.ofPgBackRestRestore(pg, "restore-" + name, labels.get(name), repository::pgbackrest));
      ARTIFACTS.write("expected-" + name + ".csv", Report.toCsv(truths.get(name)));
    });
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

  private String localAddress(String name) {
    return "pgbackrest:" + repositories.get(name).localDirectory() + "?stanza=" + STANZA;
  }

  private String s3aAddress(String name) {
    return "pgbackrest:" + repositories.get(name).s3aUrl() + "?stanza=" + STANZA;
  }

  /** A 7-block sample (seed 11) of {@code dataDir} as CSV, with {@code conf} (a store's settings) added. */
  private static ToolRun sample(String dataDir, List<String> conf) {
    List<String> args = new ArrayList<>(List.of("analyze", "--data-dir", dataDir, "--sample-blocks", "7", "--seed",
        "11", "--format", "csv", "--master", "local[2]"));
    args.addAll(conf);
    return ToolRun.of(args.toArray(String[]::new));
  }

  /** Runs {@code tool} on the store through S3A, keeps its request counts as {@code requests-<variant>.txt}. */
  private S3ToolRun throughS3a(String variant, Function<List<String>, ToolRun> tool) {
    S3ToolRun run = S3ToolRun.of(s3, tool);
    ARTIFACTS.write("requests-" + variant + ".txt", run.cost() + "\n");
    return run;
  }

  /** Each repository's {@code check}, all of them checked even after one fails. */
  private void assertEachRepository(Function<String, Executable> check) {
    assertAll(repositories.keySet().stream().map(check));
  }

  @Test
  void theBucketsHoldTheRepositoriesAsLocalOnes() {
    assertEachRepository(name -> () -> {
      Path backup = backupDirectory(name);
      assertTrue(Files.isRegularFile(backup.resolve("backup.manifest")), "a manifest in " + backup);
      assertTrue(Files.isDirectory(repositories.get(name).localDirectory().resolve("archive").resolve(STANZA)),
          "the WAL archive of " + name);
    });
    assertTrue(Files.isDirectory(backupDirectory("zst-bundled").resolve("bundle")), "bundles of zst-bundled");
    Path uncompressed = backupDirectory("none").resolve("pg_data");
    assertTrue(Files.isRegularFile(uncompressed.resolve("global").resolve("pg_control")),
        "files as they are, no suffix, in " + uncompressed);
  }

  /** The directory of repository {@code name}'s backup in its bucket's directory. */
  private Path backupDirectory(String name) {
    return repositories.get(name).localDirectory().resolve("backup").resolve(STANZA).resolve(labels.get(name));
  }

  @Test
  void fullScanOfTheBucketDirectoryMatchesPgstattuple() {
    assertEachRepository(name -> () -> {
      ToolRun run = ARTIFACTS.fullScanCsv("local-" + name, localAddress(name));
      assertEquals(0, run.status(), name + ": " + run.describe());
      assertEquals(List.of(), Report.differences(truths.get(name), run.out()),
          name + ", see " + ARTIFACTS.dir().toAbsolutePath());
    });
  }

  @Test
  void fullScanThroughS3aMatchesPgstattuple() {
    assertEachRepository(name -> () -> {
      S3ToolRun s3a = throughS3a("s3a-" + name, conf -> ARTIFACTS.fullScanCsv("s3a-" + name, s3aAddress(name), conf));
      assertEquals(0, s3a.run().status(), name + ": " + s3a.run().describe());
      assertEquals(List.of(), Report.differences(truths.get(name), s3a.run().out()),
          name + ", see " + ARTIFACTS.dir().toAbsolutePath());
      assertTrue(s3a.readOnly(),
          name + ": the store was asked for reads alone, and some: " + s3a.requests());
    });
  }

  @Test
  void aSampleThroughS3aIsTheSampleOfTheBucketDirectory() {
    assertEachRepository(name -> () -> {
      ToolRun local = sample(localAddress(name), List.of());
      S3ToolRun s3a = throughS3a("s3a-sample-" + name, conf -> sample(s3aAddress(name), conf));
      assertEquals(0, local.status(), name + " local: " + local.describe());
      assertEquals(0, s3a.run().status(), name + " s3a: " + s3a.run().describe());
      assertTrue(local.partlyReadRelations() > 0, name + ": a sample was drawn:\n" + local.out());
      assertEquals(local.out(), s3a.run().out(), name + ": the sample through S3A differs from the directory's");
      assertTrue(s3a.readOnly(),
          name + ": the store was asked for reads alone, and some: " + s3a.requests());
    });
  }
}
