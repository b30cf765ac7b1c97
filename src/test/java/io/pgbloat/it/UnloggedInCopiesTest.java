package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pgbloat.testing.Artifacts;
import io.pgbloat.testing.Csv;
import io.pgbloat.testing.PgControlData;
import io.pgbloat.testing.PostgresCluster;
import io.pgbloat.testing.ToolRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * End to end, on PostgreSQL 15 and 17: an unlogged table of 100 000 rows with a btree index,
 * beside a logged table, in the two copies a data directory can be taken as.
 *
 * <ol>
 * <li><b>A low-level online copy</b> ({@link PostgresCluster#onlineCopyTo}: a non-exclusive
 * backup, the files copied while the server runs, the returned label written as
 * {@code backup_label}). Its pg_control says "in production", and the unlogged relations' main
 * forks hold what the running server had written of them, never flushed by a checkpoint. A
 * server started on the copy resets them to their init forks: the tool must report them as that
 * server shows them (pgstattuple and pgstatindex on a started second copy, every column, and the
 * logged table's too), and name each in a warning saying why.</li>
 * <li><b>A copy of the cleanly shut down server</b>: PostgreSQL keeps the unlogged main forks
 * through a clean shutdown (the shutdown checkpoint writes them), so the tool reports their rows
 * as the restarted server shows them, with no such warning.</li>
 * </ol>
 * Reports land in {@code target/pgbloat-it/unlogged/}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ParameterizedClass(name = "PostgreSQL {0}")
@ValueSource(ints = {15, 17})
class UnloggedInCopiesTest {
  @Parameter
  int major;

  private static final Artifacts ARTIFACTS = Artifacts.under("unlogged");
  private static final int CACHE_ROWS = 100_000;
  private static final String SCENARIO = """
      CREATE EXTENSION pgstattuple;
      CREATE UNLOGGED TABLE cache (id int, v text);
      INSERT INTO cache SELECT g, md5(g::text) FROM generate_series(1, 100000) g;
      CREATE INDEX cache_id ON cache (id);
      CREATE TABLE kept (id int PRIMARY KEY, v text);
      INSERT INTO kept SELECT g, md5(g::text) FROM generate_series(1, 5000) g;
      DELETE FROM kept WHERE id % 4 = 0;
      """;
  /** pgstatindex() of public's btree indexes. */
  private static final String INDEX_TRUTH = """
      SELECT c.relname, s.* FROM pg_class c CROSS JOIN LATERAL pgstatindex(c.oid::regclass) s
       WHERE c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace
         AND c.relam = (SELECT oid FROM pg_am WHERE amname = 'btree')
      """;
  /** pgstatindex()'s columns, which the tool's index report has under the same names. */
  private static final List<String> PGSTATINDEX = List.of("version", "tree_level", "index_size", "root_block_no",
      "internal_pages", "leaf_pages", "empty_pages", "deleted_pages", "avg_leaf_density", "leaf_fragmentation");
  private static final String RESET = "resets it to its init fork";

  private PostgresCluster pg;
  /** What one copy holds, what a server shows of it, and what the tool reported. */
  private record Copy(String name, Path dir, List<Map<String, String>> tables, Map<String, Map<String, String>> indexes,
      ToolRun tool, Map<String, Map<String, String>> toolIndexes) {}

  private Copy online;
  private Copy clean;
  private String onlineControlData;
  private long onlineCacheBytes;

  @BeforeParameterizedClassInvocation
  void build() {
    PostgresCluster.assumeServer(major);
    pg = PostgresCluster.builder().version(major).setting("wal_level", "replica").init();
    pg.start();
    pg.psql("template1", "CREATE EXTENSION pgstattuple");
    pg.psql("postgres", SCENARIO);
    String cacheFile = pg.queryCsv("postgres", "SELECT pg_relation_filepath('cache') AS p").get(0).get("p");

    Path onlineDir = pg.baseDir().resolve("online");
    pg.onlineCopyTo(onlineDir);
    onlineControlData = pg.controlData(onlineDir);
    onlineCacheBytes = length(onlineDir.resolve(cacheFile));
    List<Map<String, String>> tables;
    Map<String, Map<String, String>> indexes;
    try (PostgresCluster started = PostgresCluster.onCopyOf(onlineDir)) {
      started.start();
      started.awaitEndOfRecovery();
      tables = publicTables(Truth.take(started));
      indexes = indexTruth(started);
    }
    online = scanned("online", onlineDir, tables, indexes);

    pg.stop();
    Path cleanDir = pg.baseDir().resolve("clean");
    pg.copyDataDirTo(cleanDir);
    pg.start();
    clean = scanned("clean", cleanDir, publicTables(Truth.take(pg)), indexTruth(pg));
    pg.stop();
  }

  @AfterParameterizedClassInvocation
  void close() {
    if (pg != null) {
      pg.close();
    }
  }

  @Test
  void theOnlineCopyHoldsTheMainForkOfARunningServer() {
    assertEquals("in production", PgControlData.field(onlineControlData, "Database cluster state"));
    assertTrue(Files.isRegularFile(online.dir().resolve("backup_label")));
    assertTrue(onlineCacheBytes > 0, "the copy holds cache's main fork as the running server had it on disk");
    Map<String, String> cache = row(online.tables(), "cache");
    assertEquals("0", cache.get("table_len"), "a server started on the copy resets cache to its empty init fork");
    assertEquals("8192", online.indexes().get("cache_id").get("index_size"), "and cache_id to its metapage");
  }

  @Test
  void theOnlineCopyIsReportedAsAServerStartedOnItShowsIt() {
    assertEquals(0, online.tool().status(), online.tool().describe());
    List<String> problems = new ArrayList<>(Report.differences(online.tables(), online.tool().out()));
    problems.addAll(indexDifferences(online));
    failIfAny(online, problems);
  }

  @Test
  void theOnlineCopySaysWhyEachUnloggedRelationIsItsInitFork() {
    List<String> warnings = online.tool().err().lines().filter(l -> l.contains(RESET)).toList();
    for (String relation : List.of("public.cache ", "public.cache_id ")) {
      List<String> named = warnings.stream().filter(l -> l.contains(relation)).toList();
      assertEquals(1, named.size(), relation + "named once in " + online.tool().err());
      assertTrue(named.get(0).contains("its pg_control state is in production"), named.get(0));
    }
    assertEquals(2, warnings.size(), "only the unlogged relations whose main fork holds blocks: " + warnings);
  }

  @Test
  void aCleanShutdownCopyKeepsTheUnloggedRows() {
    assertEquals(Integer.toString(CACHE_ROWS), row(clean.tables(), "cache").get("tuple_count"),
        "PostgreSQL keeps an unlogged table's rows through a clean shutdown");
    assertEquals(0, clean.tool().status(), clean.tool().describe());
    List<String> problems = new ArrayList<>(Report.differences(clean.tables(), clean.tool().out()));
    problems.addAll(indexDifferences(clean));
    failIfAny(clean, problems);
    assertTrue(clean.tool().err().lines().noneMatch(l -> l.contains(RESET)), clean.tool().err());
  }

  // ---------------------------------------------------------------- building and comparing

  /** The tool's full scan of {@code dir}'s public tables and their btree indexes. */
  private Copy scanned(String name, Path dir, List<Map<String, String>> tables,
      Map<String, Map<String, String>> indexes) {
    String variant = name + "-" + major;
    ARTIFACTS.write("expected-" + variant + ".csv", Report.toCsv(tables));
    Path indexCsv = ARTIFACTS.file("tool-" + variant + "-indexes.csv").toAbsolutePath();
    try {
      Files.deleteIfExists(indexCsv);
      ToolRun run = ARTIFACTS.fullScanCsv(variant, dir.toString(),
          List.of("--table", "public.*", "--indexes", "--index-output", indexCsv.toString()));
      Map<String, Map<String, String>> toolIndexes = new LinkedHashMap<>();
      if (Files.exists(indexCsv)) {
        Csv.parseWithHeader(Files.readString(indexCsv, StandardCharsets.UTF_8))
            .forEach(r -> toolIndexes.put(r.get("relname"), r));
      }
      return new Copy(name, dir, tables, indexes, run, toolIndexes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Of the truth, database postgres's public tables: what {@code --table public.*} reports. */
  private static List<Map<String, String>> publicTables(List<Map<String, String>> truth) {
    return truth.stream().filter(r -> r.get("database").equals("postgres") && r.get("schema").equals("public"))
        .toList();
  }

  private static Map<String, Map<String, String>> indexTruth(PostgresCluster server) {
    Map<String, Map<String, String>> byName = new LinkedHashMap<>();
    server.queryCsv("postgres", INDEX_TRUTH).forEach(r -> byName.put(r.get("relname"), r));
    return byName;
  }

  /** Every pgstatindex column of each btree index the copy's server shows against the tool's. */
  private static List<String> indexDifferences(Copy copy) {
    List<String> problems = new ArrayList<>();
    copy.indexes().forEach((name, want) -> {
      Map<String, String> got = copy.toolIndexes().get(name);
      if (got == null) {
        problems.add("index " + name + ": missing from the tool's index report");
        return;
      }
      for (String column : PGSTATINDEX) {
        if (!sameFigure(want.get(column), got.get(column))) {
          problems.add("index " + name + ": " + column + " expected " + want.get(column) + ", got " + got.get(column));
        }
      }
    });
    if (!copy.toolIndexes().keySet().equals(copy.indexes().keySet())) {
      problems.add("indexes reported " + copy.toolIndexes().keySet() + ", expected " + copy.indexes().keySet());
    }
    return problems;
  }

  private static boolean sameFigure(String want, String got) {
    if (want == null || got == null || want.equals("NaN") || got.equals("NaN")) {
      return want != null && want.equals(got);
    }
    try {
      return new BigDecimal(want).compareTo(new BigDecimal(got)) == 0;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static Map<String, String> row(List<Map<String, String>> rows, String relname) {
    return rows.stream().filter(r -> r.get("schema").equals("public") && r.get("relname").equals(relname))
        .findFirst().orElseThrow(() -> new AssertionError("no row for public." + relname + " in " + rows));
  }

  private static long length(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void failIfAny(Copy copy, List<String> problems) {
    if (!problems.isEmpty()) {
      fail(copy.name() + " copy, PostgreSQL " + major + ": " + problems.size() + " difference(s); see "
          + ARTIFACTS.dir().toAbsolutePath() + "\n  " + String.join("\n  ", problems) + "\nstderr:\n"
          + copy.tool().err());
    }
  }
}
