package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.changes.ForkChanges;
import io.pgbloat.changes.RelationFork;
import io.pgbloat.changes.SpanChanges;
import io.pgbloat.changes.SummaryCover;
import io.pgbloat.changes.UnreadableSummaryException;
import io.pgbloat.changes.WalSummaries;
import io.pgbloat.changes.WalSummaryFile;
import io.pgbloat.changes.WalSummaryName;
import io.pgbloat.io.read.Fork;
import io.pgbloat.io.store.LocalFileStore;
import io.pgbloat.testing.PostgresCluster;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The WAL summaries a real PostgreSQL 17 and 18 server writes with {@code summarize_wal = on},
 * read from its data directory, against what the server itself says they hold
 * ({@code pg_wal_summary_contents}): every block and every limit block of every summary, through
 * inserts, updates, a truncation, a table created, one dropped and one rewritten, and enough
 * changes to one fork that a chunk turns into a bitmap.
 */
class WalSummariesMatchPostgresTest {
  private static final String WORKLOAD = """
      CREATE TABLE t (id int, filler text) WITH (autovacuum_enabled = off);
      INSERT INTO t SELECT g, repeat('x', 200) FROM generate_series(1, 200000) g;
      CHECKPOINT;
      UPDATE t SET id = id + 1 WHERE id % 7 = 0;
      CREATE TABLE gone (id int);
      INSERT INTO gone SELECT generate_series(1, 1000);
      CHECKPOINT;
      DROP TABLE gone;
      DELETE FROM t WHERE id > 150000;
      VACUUM t;
      CREATE TABLE rewritten (id int);
      INSERT INTO rewritten SELECT generate_series(1, 5000);
      VACUUM FULL rewritten;
      CREATE UNLOGGED TABLE u (id int);
      INSERT INTO u SELECT generate_series(1, 1000);
      CHECKPOINT;
      """;
  private static final Duration SUMMARIZED_WITHIN = Duration.ofSeconds(60);

  @ParameterizedTest(name = "PostgreSQL {0}")
  @ValueSource(ints = {17, 18})
  void everySummaryReadsAsTheServerReadsIt(int major) throws Exception {
    PostgresCluster.assumeServer(major);
    try (PostgresCluster pg = PostgresCluster.builder().version(major).setting("wal_level", "replica").setting("summarize_wal", "on")
        .setting("autovacuum", "off").init()) {
      pg.start();
      pg.psql("postgres", WORKLOAD);
      pg.awaitWalSummarized(SUMMARIZED_WITHIN);
      List<Map<String, String>> available = pg.queryCsv("postgres",
          "SELECT tli, start_lsn, end_lsn FROM pg_available_wal_summaries() ORDER BY tli, start_lsn");
      LocalFileStore files = LocalFileStore.open(pg.dataDir().toString());
      WalSummaries summaries = WalSummaries.in(files);
      assertEquals(available.size(), summaries.names().size(), "summaries listed");
      boolean sawBitmap = false;
      for (int i = 0; i < available.size(); i++) {
        Map<String, String> a = available.get(i);
        WalSummaryName name = summaries.names().get(i);
        assertEquals(a.get("start_lsn"), WalSummaryName.lsn(name.startLsn()));
        assertEquals(a.get("end_lsn"), WalSummaryName.lsn(name.endLsn()));
        TreeSet<String> server = new TreeSet<>();
        for (Map<String, String> row : pg.queryCsv("postgres", "SELECT * FROM pg_wal_summary_contents(" + a.get("tli")
            + ", '" + a.get("start_lsn") + "', '" + a.get("end_lsn") + "')")) {
          server.add(String.join(",", row.get("reltablespace"), row.get("reldatabase"), row.get("relfilenode"),
              row.get("relforknumber"), row.get("relblocknumber"), row.get("is_limit_block")));
        }
        TreeSet<String> ours = new TreeSet<>();
        for (ForkChanges f : WalSummaryFile.parse(files.readAll(name.path()))) {
          String fork = f.fork().tablespace() + "," + f.fork().database() + "," + f.fork().relNumber() + ","
              + f.fork().fork().ordinal() + ",";
          if (f.limitBlock() != ForkChanges.NO_LIMIT) {
            ours.add(fork + f.limitBlock() + ",t");
          }
          f.modified().forEach(b -> ours.add(fork + b + ",f"));
          sawBitmap |= f.modified().size() > 4096;
        }
        assertEquals(server, ours, name.path());
      }
      assertTrue(sawBitmap, "a fork with more than 4096 blocks modified in one summary");

      // the whole span from the first summary on, and what it says of t's main fork
      WalSummaryName first = summaries.names().get(0);
      long end = summaries.names().get(summaries.names().size() - 1).endLsn();
      SummaryCover cover = summaries.cover(first.timeline(), first.startLsn(), end);
      assertTrue(cover.isComplete(), cover::gap);
      SummaryCover past = summaries.cover(first.timeline(), first.startLsn(), end + 1);
      assertFalse(past.isComplete());
      assertTrue(past.gap().contains("only up to " + WalSummaryName.lsn(end)), past.gap());
      Map<String, String> t = pg.queryCsv("postgres", "SELECT reltablespace, (SELECT oid FROM pg_database WHERE"
          + " datname = current_database()) AS db, pg_relation_filenode('t') AS rel FROM pg_class WHERE relname = 't'")
          .get(0);
      long spc = Long.parseLong(t.get("reltablespace")) == 0
          ? Long.parseLong(pg.queryCsv("postgres", "SELECT oid FROM pg_tablespace WHERE spcname = 'pg_default'")
              .get(0).get("oid"))
          : Long.parseLong(t.get("reltablespace"));
      SpanChanges changes = summaries.changes(cover);
      ForkChanges main = changes.of(new RelationFork(spc, Long.parseLong(t.get("db")), Long.parseLong(t.get("rel")),
          Fork.MAIN));
      long blocks = Long.parseLong(pg.queryCsv("postgres", "SELECT pg_relation_size('t') / 8192 AS b").get(0).get("b"));
      assertTrue(main.changed(0) && main.changed(blocks - 1), "t was loaded within the span");
    }
  }

  @ParameterizedTest(name = "PostgreSQL {0}")
  @ValueSource(ints = {17})
  void aDamagedSummaryIsRefusedInOneLine(int major) throws Exception {
    PostgresCluster.assumeServer(major);
    try (PostgresCluster pg = PostgresCluster.builder().version(major).setting("wal_level", "replica").setting("summarize_wal", "on").init()) {
      pg.start();
      pg.psql("postgres", "CREATE TABLE t (id int); INSERT INTO t SELECT generate_series(1, 10000); CHECKPOINT;");
      pg.awaitWalSummarized(SUMMARIZED_WITHIN);
      WalSummaries summaries = WalSummaries.in(LocalFileStore.open(pg.dataDir().toString()));
      WalSummaryName name = summaries.names().get(summaries.names().size() - 1);
      byte[] bytes = Files.readAllBytes(pg.dataDir().resolve(name.path()));
      List<String> messages = new ArrayList<>();
      for (int at : new int[] {0, bytes.length / 2, bytes.length - 1}) {
        byte[] damaged = bytes.clone();
        damaged[at] ^= 0x40;
        messages.add(refusal(damaged));
      }
      messages.add(refusal(Arrays.copyOf(bytes, bytes.length - 7)));
      for (String m : messages) {
        assertFalse(m.isEmpty() || m.contains("\n") || m.contains("Exception"), m);
      }
    }
  }

  private static String refusal(byte[] bytes) {
    try {
      WalSummaryFile.parse(bytes);
      return "";
    } catch (UnreadableSummaryException e) {
      return e.getMessage();
    }
  }
}
