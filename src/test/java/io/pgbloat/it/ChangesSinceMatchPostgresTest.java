package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.catalog.DataDirectory;
import io.pgbloat.changes.ChangesSince;
import io.pgbloat.changes.CopyPoint;
import io.pgbloat.changes.ForkChanges;
import io.pgbloat.changes.RelationFork;
import io.pgbloat.changes.SpanChanges;
import io.pgbloat.changes.SummaryCover;
import io.pgbloat.changes.WalSummaries;
import io.pgbloat.changes.WalSummaryName;
import io.pgbloat.io.store.LocalFileStore;
import io.pgbloat.testing.DirectoryTrees;
import io.pgbloat.testing.PostgresCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a copy proves changed since an earlier copy ({@link ChangesSince}), on real PostgreSQL 17
 * and 18 servers with {@code summarize_wal = on}, against the summaries the server itself writes
 * for the same span once it runs again: clean stops, whose last stretch of WAL no summary covers
 * yet and is read record by record, and an online copy; then each reason a copy proves nothing.
 */
class ChangesSinceMatchPostgresTest {
  private static final String LOAD = """
      CREATE TABLE t (id int, filler text) WITH (autovacuum_enabled = off);
      INSERT INTO t SELECT g, repeat('x', 200) FROM generate_series(1, 100000) g;
      CREATE TABLE gone (id int);
      INSERT INTO gone SELECT generate_series(1, 1000);
      CREATE TABLE trimmed (id int) WITH (autovacuum_enabled = off);
      INSERT INTO trimmed SELECT generate_series(1, 50000);
      CREATE TABLE rewritten (id int);
      INSERT INTO rewritten SELECT generate_series(1, 5000);
      CHECKPOINT;
      """;
  /**
   * Changes summarized before the stop, and some after the last checkpoint, which only the WAL
   * holds; in a WAL segment after the earlier copy's.
   */
  private static final String CHANGES = """
      SELECT pg_switch_wal();
      UPDATE t SET id = id + 1 WHERE id % 97 = 0;
      CHECKPOINT;
      DROP TABLE gone;
      DELETE FROM trimmed WHERE id > 20000;
      VACUUM trimmed;
      VACUUM FULL rewritten;
      CREATE TABLE created (id int);
      INSERT INTO created SELECT generate_series(1, 3000);
      CHECKPOINT;
      UPDATE t SET id = id + 1 WHERE id % 1009 = 0;
      DELETE FROM created WHERE id < 100;
      """;
  private static final Duration SUMMARIZED_WITHIN = Duration.ofSeconds(60);

  @ParameterizedTest(name = "PostgreSQL {0}")
  @ValueSource(ints = {17, 18})
  void aCleanCopyProvesWhatTheServerSummarizes(int major) throws Exception {
    PostgresCluster.assumeServer(major);
    try (PostgresCluster pg = summarizing(major)) {
      CopyPoint earlier = loadedCleanCopyThenChanged(pg);
      pg.stop();
      Path laterCopy = pg.baseDir().resolve("copy-b");
      pg.copyDataDirTo(laterCopy);
      LocalFileStore files = LocalFileStore.open(laterCopy.toString());
      DataDirectory later = DataDirectory.open(files);
      long end = later.control().checkpoint();
      WalSummaries inCopy = WalSummaries.in(files);
      assertTrue(inCopy.cover(later.control().timeline(), earlier.from(), end).coveredTo() < end,
          "the copy's summaries stop short of its end, so its WAL is read too");
      ChangesSince changes = ChangesSince.in(later, files, earlier);
      assertTrue(changes.isProven(), changes::unproven);

      pg.start();
      pg.psql("postgres", "CHECKPOINT");
      pg.awaitWalSummarized(SUMMARIZED_WITHIN);
      WalSummaries server = WalSummaries.in(LocalFileStore.open(pg.dataDir().toString()));
      SummaryCover cover = server.cover(later.control().timeline(), earlier.from(), end);
      assertTrue(cover.isComplete(), cover::gap);
      assertEquals(end, cover.summaries().get(cover.summaries().size() - 1).endLsn(),
          "the server's summaries end at the copy's shutdown checkpoint");
      assertEquals(normalized(server.changes(cover)), normalized(changes.changes()));

      // a copy of another cluster, of the same copy with a damaged summary, and without its
      // summaries and the WAL they would have let it skip: nothing proven, in one line each
      CopyPoint foreign = new CopyPoint(earlier.systemIdentifier() + 1, earlier.major(), earlier.timeline(),
          earlier.dataChecksumVersion(), earlier.from());
      assertUnproven(ChangesSince.in(later, files, foreign), "another cluster");
      WalSummaryName first = inCopy.cover(later.control().timeline(), earlier.from(), end).summaries().get(0);
      Path damaged = laterCopy.resolve(first.path());
      byte[] bytes = Files.readAllBytes(damaged);
      bytes[bytes.length / 2] ^= 0x10;
      Files.write(damaged, bytes);
      assertUnproven(ChangesSince.in(later, files, earlier), first.path());
      try (Stream<Path> summaries = Files.list(laterCopy.resolve(WalSummaryName.DIRECTORY))) {
        for (Path p : summaries.toList()) {
          Files.delete(p);
        }
      }
      String lastSegment = walSegment(later.control().timeline(), end);
      try (Stream<Path> segments = Files.list(laterCopy.resolve("pg_wal"))) {
        for (Path p : segments.filter(p -> p.getFileName().toString().matches("[0-9A-F]{24}")
            && p.getFileName().toString().compareTo(lastSegment) < 0).toList()) {
          Files.delete(p);
        }
      }
      assertUnproven(ChangesSince.in(later, files, earlier), "no WAL summary of timeline");
      DirectoryTrees.delete(laterCopy);
    }
  }

  @ParameterizedTest(name = "PostgreSQL {0}")
  @ValueSource(ints = {17})
  void anOnlineCopyProvesAtLeastWhatTheServerSummarizedBeforeIt(int major) throws Exception {
    PostgresCluster.assumeServer(major);
    try (PostgresCluster pg = summarizing(major)) {
      CopyPoint earlier = loadedCleanCopyThenChanged(pg);
      Path onlineCopy = pg.baseDir().resolve("copy-online");
      pg.onlineCopyTo(onlineCopy);
      LocalFileStore files = LocalFileStore.open(onlineCopy.toString());
      DataDirectory later = DataDirectory.open(files);
      ChangesSince changes = ChangesSince.in(later, files, earlier);
      assertTrue(changes.isProven(), changes::unproven);

      pg.psql("postgres", "CHECKPOINT");
      pg.awaitWalSummarized(SUMMARIZED_WITHIN);
      WalSummaries server = WalSummaries.in(LocalFileStore.open(pg.dataDir().toString()));
      long timeline = later.control().timeline();
      SummaryCover before = server.cover(timeline, earlier.from(), later.backupStart().getAsLong());
      SummaryCover after = server.cover(timeline, earlier.from(), Long.MAX_VALUE);
      Map<String, String> ours = normalized(changes.changes());
      for (Map.Entry<String, String> e : normalized(server.changes(before)).entrySet()) {
        assertTrue(ours.containsKey(e.getKey()), "the copy names " + e.getKey());
      }
      Set<String> beyond = new HashSet<>(ours.keySet());
      beyond.removeAll(normalized(server.changes(after)).keySet());
      assertTrue(beyond.isEmpty(), "forks the server never summarized: " + beyond);
      DirectoryTrees.delete(onlineCopy);
    }
  }

  /** A cluster of {@code major} that summarizes its WAL, not yet started. */
  private static PostgresCluster summarizing(int major) {
    return PostgresCluster.builder().version(major).setting("wal_level", "replica").setting("summarize_wal", "on")
        .setting("autovacuum", "off").init();
  }

  /**
   * Starts {@code pg}, runs {@link #LOAD}, stops it and notes where a clean copy of it stands,
   * then starts it again and runs {@link #CHANGES}; the server is left running.
   */
  private static CopyPoint loadedCleanCopyThenChanged(PostgresCluster pg) {
    pg.start();
    pg.psql("postgres", LOAD);
    pg.stop();
    CopyPoint earlier = CopyPoint.of(DataDirectory.open(LocalFileStore.open(pg.dataDir().toString())));
    pg.start();
    pg.psql("postgres", CHANGES);
    return earlier;
  }

  private static void assertUnproven(ChangesSince changes, String says) {
    assertFalse(changes.isProven());
    String why = changes.unproven();
    assertTrue(why.contains(says) && !why.contains("\n") && !why.contains("Exception"), why);
  }

  /** Per fork, its limit block and the blocks before it modified: what {@link ForkChanges#changed} answers from. */
  private static Map<String, String> normalized(SpanChanges changes) {
    Map<String, String> forks = new TreeMap<>();
    for (Map.Entry<RelationFork, ForkChanges> e : changes.forks().entrySet()) {
      ForkChanges f = e.getValue();
      StringBuilder blocks = new StringBuilder("limit " + f.limitBlock() + ":");
      f.modified().forEach(b -> {
        if (b < f.limitBlock()) {
          blocks.append(' ').append(b);
        }
      });
      forks.put(e.getKey().toString(), blocks.toString());
    }
    return forks;
  }

  /** The name of the WAL segment (16 MB, initdb's default) holding {@code lsn}. */
  private static String walSegment(long timeline, long lsn) {
    long segment = lsn / (16L << 20);
    return String.format("%08X%08X%08X", timeline, segment / 256, segment % 256);
  }
}
