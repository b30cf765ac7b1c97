package io.pgbloat.it;

import static io.pgbloat.page.PageHeader.BLCKSZ;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pgbloat.testing.Artifacts;
import io.pgbloat.testing.BuiltOnce;
import io.pgbloat.testing.Clusters;
import io.pgbloat.testing.Csv;
import io.pgbloat.testing.PgControlData;
import io.pgbloat.testing.PostgresCluster;
import io.pgbloat.testing.Requirement;
import io.pgbloat.testing.ToolRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The copies people really have, taken from a primary under load: a plain base
 * backup ({@code pg_basebackup -X stream}) and a streaming standby, stopped after it caught up.
 *
 * <p>The primary (wal_level replica, data checksums) holds pgbench's tables ({@code -s 2}), an
 * UNLOGGED table {@code cache} with indexes and TOASTed rows, and a table {@code notes} whose
 * bodies live in TOAST. While both copies are taken, {@code pgbench -c 4 -j 2 -n -R 1500} runs, and a
 * psql session creates and drops TEMP tables in a loop and rewrites one {@code notes} body every
 * 16th round (two new TOAST chunks, two dead old ones).
 *
 * <p>The truth for each copy is pgstattuple() on a server started on a copy of it, kept a hot
 * standby with no primary: recovery replays the copy's WAL (the standby's after its last
 * restartpoint; the backup's from its start checkpoint to its end), and a server in recovery
 * never prunes a page ({@code heap_page_prune_opt} returns at once), so two passes agree.
 * (Unlogged relations cannot be read in recovery, so {@code cache} has no such truth: what a
 * server shows for it after recovery is its init fork, an empty table and metapage-only
 * indexes, and that is what the tool must report, in a run of its own for the indexes.)
 *
 * <ul>
 * <li>The stopped standby wrote everything it replayed at its shutdown restartpoint (a
 * CHECKPOINT on the primary once the load is over gives it a replayed checkpoint record to make
 * it at), so its files are what its copy's server shows: counts within a few tuples. A second
 * standby, stopped before that checkpoint, has no such record since its last restartpoint: its
 * shutdown writes nothing (CreateRestartPoint returns early) and its files miss the changes
 * still in its shared buffers (measured: pgbench_history 4082 rows of 14976, 152 of 317 blocks
 * all-zero), which no offline reader can recover; the tool must warn of it, and only of it.</li>
 * <li>The backup's files are a fuzzy copy — each page as it was when pg_basebackup read it,
 * pg_xact as of its own moment — and only WAL replay makes them consistent; the tool reads the
 * files as they are. So its figures can only be close to the recovered copy's: table_len no
 * larger (recovery replays the pages appended after a file was read; nothing here truncates),
 * and dead_tuple_percent and free_percent within {@link #BACKUP_PERCENT_POINTS} points. That
 * holds for a table of many pages that the load changes a tuple at a time (pgbench_accounts,
 * the TOAST of notes; pgbench runs at a fixed rate, {@link #LOAD_TPS}, so that a slower disk
 * does not make the backup's window hold more changes). A small table the load rewrites or
 * appends to every few milliseconds (pgbench_branches and _tellers, one or two pages updated
 * thousands of times a second; pgbench_history, whose last pages are read half filled) is, page
 * for page, another table by the backup's end: for those (under {@link #BACKUP_STRICT_BLOCKS}
 * blocks) the bound widens by what recovery changed, measured: the blocks that differ byte for
 * byte between the backup and its recovered copy (flushed by promotion and a clean stop), plus
 * the blocks recovery appended, each worth at most 100 points over the backup's table_len. (A
 * block the same in both can still differ by a tuple or two whose transaction committed after
 * pg_xact was read; the {@link #BACKUP_PERCENT_POINTS} stay for that.)</li>
 * </ul>
 *
 * <p>Reports and truths land in {@code target/pgbloat-it/copies-under-load/}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CopiesUnderLoadTest {

  private static final Artifacts ARTIFACTS = Artifacts.under("copies-under-load");
  private static final String DB = "postgres";

  /** The load's length: it must outlast both copies and the standby's start (checked). */
  private static final int LOAD_SECONDS = 10;
  /** pgbench's rate ({@code -R}), well below what this machine does unthrottled (~5000 tps). */
  private static final int LOAD_TPS = 1500;
  /** The warning of a standby stopped with replayed changes its files may lack. */
  private static final String STALE_STANDBY_WARNING = "pgbloat: warning: this standby was stopped with changes it "
      + "replayed past its last restartpoint";
  /** Standby: tuple counts within max(this, 0.5 %) of the started copy's. */
  private static final long STANDBY_TUPLES = 10;
  /** Backup: dead_tuple_percent and free_percent within this many points of the recovered copy's. */
  private static final double BACKUP_PERCENT_POINTS = 2.0;
  /**
   * Backup: from this many blocks (in the recovered copy) the {@link #BACKUP_PERCENT_POINTS}
   * bound is strict; below, it widens by the share of blocks recovery changed.
   */
  private static final long BACKUP_STRICT_BLOCKS = 64;

  private static final String SETUP = """
      CREATE EXTENSION pgstattuple;

      -- UNLOGGED: pg_basebackup copies only its init forks, a standby never has more
      CREATE UNLOGGED TABLE cache (k int PRIMARY KEY, v text NOT NULL, blob text);
      ALTER TABLE cache ALTER COLUMN blob SET STORAGE EXTERNAL;
      INSERT INTO cache SELECT g, md5(g::text), NULL FROM generate_series(1, 4000) g;
      UPDATE cache SET blob = (SELECT string_agg(md5(k || ':' || j), '') FROM generate_series(1, 100) j)
       WHERE k <= 40;                                  -- 3200 bytes out of line: TOAST chunks
      CREATE INDEX cache_v ON cache (v);

      -- 3200 bytes of md5 hex per body, stored out of line uncompressed: two TOAST chunks each
      CREATE TABLE notes (id int PRIMARY KEY, body text);
      ALTER TABLE notes ALTER COLUMN body SET STORAGE EXTERNAL;
      INSERT INTO notes
      SELECT g, (SELECT string_agg(md5(g || ':' || j), '') FROM generate_series(1, 100) j)
        FROM generate_series(1, 1200) g;
      DELETE FROM notes WHERE id % 7 = 0;

      -- one number per round of the temp-table session, so the copies can tell it ran
      CREATE SEQUENCE churn_rounds;
      CHECKPOINT;
      """;

  /** One round of the TEMP table session (autocommit: every statement its own transaction). */
  private static final String CHURN_ROUND = """
      SELECT nextval('churn_rounds');
      CREATE TEMP TABLE tmp_%1$d (id int PRIMARY KEY, v text);
      INSERT INTO tmp_%1$d SELECT g, md5(g::text) FROM generate_series(1, 200) g;
      DROP TABLE IF EXISTS tmp_%2$s;
      UPDATE notes SET body = md5('%1$d') || substr(body, 33) WHERE id = %3$d AND %1$d %% 16 = 0;
      SELECT pg_sleep(0.01);
      """;
  private static final int CHURN_ROUNDS = 20000; // far more than the load lasts: it is ended by pg_terminate_backend

  private static final String TRUTH_QUERY = """
      SELECT n.nspname AS schema, c.relname, c.relkind, c.relpersistence,
             pg_relation_filepath(c.oid) AS relpath,
             coalesce(o_n.nspname || '.' || o.relname, '') AS toast_of,
             t.*
        FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        LEFT JOIN pg_class o ON o.reltoastrelid = c.oid
        LEFT JOIN pg_namespace o_n ON o_n.oid = o.relnamespace
       CROSS JOIN LATERAL pgstattuple(c.oid::regclass) t
       WHERE c.relkind IN ('r', 't', 'm') AND c.relpersistence = 'p'
         AND coalesce(o_n.nspname, n.nspname) NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
       ORDER BY n.nspname, c.relname
      """;

  private final Clusters clusters = new Clusters();
  private final BuiltOnce<Copies> copies = new BuiltOnce<>("the copies", this::build);

  /** Marks of the load (pgbench_history rows, temp rounds) around each copy. */
  private record Marks(long history, long churn) {}

  private record Copies(Path standbyDir, Path backupDir, String standbyState, String backupState,
      boolean backupHasLabel, Marks beforeBackup, Marks afterBackup, Marks afterStandbyStart, Marks loadEnd,
      String loadSummary, String churnOutcome, String replayTarget, String standbyReplayed,
      List<Map<String, String>> standbyTruth, List<Map<String, String>> backupTruth,
      Map<String, BlockChanges> backupChanges, ToolRun standbyRun, ToolRun backupRun, ToolRun standbyIndexRun,
      ToolRun backupIndexRun, ToolRun staleStandbyRun, long seconds) {}

  /**
   * A relation's main fork in the backup against its recovered copy: blocks in each, and the
   * blocks both have whose 8 kB differ. A block the same in both adds the same to every figure;
   * each other block, or one recovery appended, can move a percentage of table_len by at most
   * 100 points over the backup's block count ({@link #bound}).
   */
  record BlockChanges(long backupBlocks, long recoveredBlocks, long differing) {

    double bound() {
      return 100.0 * (differing + Math.max(0, recoveredBlocks - backupBlocks)) / backupBlocks;
    }

    @Override
    public String toString() {
      return String.format("%d of the backup's %d blocks differ from the recovered copy's, which has %d: +%.2f points",
          differing, backupBlocks, recoveredBlocks, bound());
    }
  }

  @AfterAll
  void closeClusters() {
    clusters.close();
  }

  // ---------------------------------------------------------------- the tests

  @Test
  void theCopiesWereTakenUnderLoad() {
    Copies c = copies();
    List<String> problems = new ArrayList<>();
    if (c.afterBackup().history() <= c.beforeBackup().history() || c.afterBackup().churn() <= c.beforeBackup().churn()) {
      problems.add("pgbench or the temp-table session did not run while the backup was taken: " + c.beforeBackup()
          + " -> " + c.afterBackup());
    }
    if (c.loadEnd().history() <= c.afterStandbyStart().history()) {
      problems.add("the load ended before the standby ran: " + c.afterStandbyStart() + " -> " + c.loadEnd()
          + "; raise LOAD_SECONDS");
    }
    if (c.loadEnd().churn() <= c.afterStandbyStart().churn()) {
      problems.add("the temp-table session ended before the standby ran: " + c.churnOutcome());
    }
    if (!"shut down in recovery".equals(c.standbyState())) {
      problems.add("standby pg_control state '" + c.standbyState() + "', expected 'shut down in recovery'");
    }
    if (!"in production".equals(c.backupState()) || !c.backupHasLabel()) {
      problems.add("backup: pg_control state '" + c.backupState() + "' (expected 'in production'), backup_label "
          + (c.backupHasLabel() ? "present" : "absent"));
    }
    for (Path dir : List.of(c.standbyDir(), c.backupDir())) {
      if (Files.exists(dir.resolve("postmaster.pid"))) {
        problems.add(dir + " has a postmaster.pid: a server runs on it");
      }
    }
    System.out.printf("copies under load: %d s to build; pgbench history %s -> %s -> %s -> %s; %s%n",
        c.seconds(), c.beforeBackup(), c.afterBackup(), c.afterStandbyStart(), c.loadEnd(),
        c.loadSummary().lines().filter(l -> l.startsWith("tps") || l.contains("processed")).toList());
    if (!problems.isEmpty()) {
      fail("the scenario was not built as intended:\n  " + String.join("\n  ", problems));
    }
  }

  /** Only the standby stopped before a restartpoint is warned about; its figures are not compared. */
  @Test
  void aStandbyStoppedBeforeARestartpointIsWarnedAbout() {
    Copies c = copies();
    assertTrue(c.staleStandbyRun().err().contains(STALE_STANDBY_WARNING), c.staleStandbyRun().describe());
    assertFalse(c.standbyRun().err().contains(STALE_STANDBY_WARNING), c.standbyRun().describe());
    assertFalse(c.backupRun().err().contains(STALE_STANDBY_WARNING), c.backupRun().describe());
  }

  @Test
  void bothCopiesAreReadWithoutFindings() {
    Copies c = copies();
    List<String> problems = new ArrayList<>();
    problems.addAll(findings("standby", c.standbyRun()));
    problems.addAll(findings("backup", c.backupRun()));
    if (!problems.isEmpty()) {
      fail(String.join("\n  ", problems));
    }
  }

  @Test
  void unloggedCacheIsReadAsAnEmptyTableInBoth() {
    Copies c = copies();
    List<String> problems = new ArrayList<>();
    checkUnlogged(problems, "standby", c.standbyDir(), c.standbyRun());
    checkUnlogged(problems, "backup", c.backupDir(), c.backupRun());
    checkUnloggedIndexes(problems, "standby", c.standbyIndexRun());
    checkUnloggedIndexes(problems, "backup", c.backupIndexRun());
    if (!problems.isEmpty()) {
      fail("the unlogged table:\n  " + String.join("\n  ", problems));
    }
  }

  @Test
  void stoppedStandbyMatchesItsStartedCopy() {
    Copies c = copies();
    Map<String, Map<String, String>> got = byKey(c.standbyRun());
    List<String> problems = new ArrayList<>();
    for (Map<String, String> want : c.standbyTruth()) {
      String key = Report.key(want);
      Map<String, String> row = got.get(key);
      if (row == null) {
        problems.add(key + ": missing from the tool's report");
        continue;
      }
      for (String column : List.of("tuple_count", "dead_tuple_count")) {
        long expected = Long.parseLong(want.get(column));
        long actual = Long.parseLong(row.get(column));
        long tolerance = Math.max(STANDBY_TUPLES, Math.round(0.005 * expected));
        if (Math.abs(actual - expected) > tolerance) {
          problems.add(key + ": " + column + " expected " + expected + " +-" + tolerance + ", got " + actual);
        }
      }
      if (!want.get("table_len").equals(row.get("table_len"))) {
        problems.add(key + ": table_len expected " + want.get("table_len") + ", got " + row.get("table_len"));
      }
    }
    failIfAny("standby", c.standbyTruth(), problems);
  }

  @Test
  void baseBackupIsCloseToItsRecoveredCopy() {
    Copies c = copies();
    Map<String, Map<String, String>> got = byKey(c.backupRun());
    List<String> problems = new ArrayList<>();
    for (Map<String, String> want : c.backupTruth()) {
      String key = Report.key(want);
      Map<String, String> row = got.get(key);
      if (row == null) {
        problems.add(key + ": missing from the tool's report");
        continue;
      }
      long wantLen = Long.parseLong(want.get("table_len"));
      long gotLen = Long.parseLong(row.get("table_len"));
      if (gotLen > wantLen) {
        problems.add(key + ": table_len " + gotLen + " is larger than the recovered copy's " + wantLen);
      }
      BlockChanges changes = c.backupChanges().get(key);
      double tolerance = BACKUP_PERCENT_POINTS;
      String why = "";
      if (wantLen / BLCKSZ < BACKUP_STRICT_BLOCKS && changes != null && changes.backupBlocks() > 0) {
        tolerance += changes.bound();
        why = " (" + changes + ")";
      }
      for (String column : List.of("dead_tuple_percent", "free_percent")) {
        double expected = Double.parseDouble(want.get(column));
        double actual = Double.parseDouble(row.get(column));
        if (Math.abs(actual - expected) > tolerance + 1e-9) {
          problems.add(String.format("%s: %s expected %s +-%.2f, got %s%s", key, column, want.get(column), tolerance,
              row.get(column), why));
        }
      }
    }
    failIfAny("backup", c.backupTruth(), problems);
  }

  // ---------------------------------------------------------------- checks

  private static List<String> findings(String variant, ToolRun run) {
    List<String> problems = new ArrayList<>();
    if (run.status() != 0) {
      problems.add(variant + ": exit " + run.status() + " (expected 0)");
    }
    for (String line : run.err().lines().toList()) {
      if (line.startsWith("pgbloat: bad data:") || (line.contains("relation file") && line.contains("missing"))) {
        problems.add(variant + ": finding: " + line);
      }
    }
    if (!problems.isEmpty()) {
      problems.add(variant + ": stderr was:\n" + run.err());
    }
    return problems;
  }

  /** cache and its TOAST table: in the report, 0 blocks, 'u', no bad page; on disk, only the init fork. */
  private static void checkUnlogged(List<String> problems, String variant, Path dir, ToolRun run) {
    List<Map<String, String>> rows = Csv.parseWithHeader(run.out()).stream()
        .filter(r -> r.get("database").equals(DB)
            && (r.get("schema").equals("public") && r.get("relname").equals("cache")
                || r.get("toast_of").equals("public.cache")))
        .toList();
    if (rows.size() != 2) {
      problems.add(variant + ": expected cache and its TOAST table in the report, found " + rows);
      return;
    }
    for (Map<String, String> row : rows) {
      String name = variant + ": " + Report.key(row);
      for (Map.Entry<String, String> e : Map.of("table_len", "0", "blocks", "0", "tuple_count", "0",
          "dead_tuple_count", "0", "bad_pages", "0", "relpersistence", "u").entrySet()) {
        if (!e.getValue().equals(row.get(e.getKey()))) {
          problems.add(name + ": " + e.getKey() + " expected " + e.getValue() + ", got '" + row.get(e.getKey()) + "'");
        }
      }
      String relpath = row.get("relpath");
      if (Files.exists(dir.resolve(relpath)) || !Files.isRegularFile(dir.resolve(relpath + "_init"))) {
        problems.add(name + ": expected only the init fork on disk, main fork " + relpath
            + (Files.exists(dir.resolve(relpath)) ? " present" : " absent") + ", init fork "
            + (Files.isRegularFile(dir.resolve(relpath + "_init")) ? "present" : "absent"));
      }
      String[] parts = relpath.split("/");
      String filenode = parts[parts.length - 1];
      run.err().lines().filter(l -> l.contains(filenode) || l.contains("public.cache"))
          .forEach(l -> problems.add(name + ": stderr names it: " + l));
    }
  }

  /**
   * cache's two btree indexes, read as their init forks: a metapage only (index_size 8192, no
   * leaf page, as pgstatindex shows an index recovery has just reset), no finding, relpersistence 'u'.
   */
  private static void checkUnloggedIndexes(List<String> problems, String variant, ToolRun run) {
    problems.addAll(findings(variant + " --indexes", run));
    if (run.out().isEmpty()) {
      problems.add(variant + " --indexes: no index report written");
      return;
    }
    List<Map<String, String>> rows = Csv.parseWithHeader(run.out());
    List<String> names = rows.stream().map(r -> r.get("relname")).sorted().toList();
    if (!names.equals(List.of("cache_pkey", "cache_v"))) {
      problems.add(variant + " --indexes: expected cache_pkey and cache_v, got " + names);
    }
    for (Map<String, String> row : rows) {
      String name = variant + ": index " + Report.key(row);
      for (Map.Entry<String, String> e : Map.of("index_size", "8192", "leaf_pages", "0", "internal_pages", "0",
          "bad_pages", "0", "relpersistence", "u").entrySet()) {
        if (!e.getValue().equals(row.get(e.getKey()))) {
          problems.add(name + ": " + e.getKey() + " expected " + e.getValue() + ", got '" + row.get(e.getKey()) + "'");
        }
      }
    }
  }

  private static Map<String, Map<String, String>> byKey(ToolRun run) {
    Map<String, Map<String, String>> rows = new LinkedHashMap<>();
    for (Map<String, String> row : Csv.parseWithHeader(run.out())) {
      rows.put(Report.key(row), row);
    }
    return rows;
  }

  private static void failIfAny(String variant, List<Map<String, String>> truth, List<String> problems) {
    if (!problems.isEmpty()) {
      fail(variant + ": " + problems.size() + " difference(s) over " + truth.size() + " user relations; see "
          + ARTIFACTS.dir().toAbsolutePath() + "/{expected,tool}-" + variant + ".csv\n  "
          + String.join("\n  ", problems));
    }
  }

  // ---------------------------------------------------------------- building the copies

  private Copies copies() {
    PostgresCluster.assumeServer();
    for (String binary : List.of("pg_basebackup", "pgbench")) {
      Requirement.require(Files.isExecutable(PostgresCluster.binDir().resolve(binary)) ? ""
          : binary + " not found in " + PostgresCluster.binDir());
    }
    return copies.get();
  }

  private PostgresCluster keep(PostgresCluster pg) {
    return clusters.keep(pg);
  }

  private Copies build() {
    long started = System.nanoTime();
    PostgresCluster primary = keep(PostgresCluster.builder().dataChecksums(true)
        .setting("wal_level", "replica")
        .setting("max_wal_senders", "4")
        .setting("hot_standby", "on")
        .init());
    primary.start();
    primary.pgbench(DB, "-i", "-s", "2", "-q");
    primary.psql(DB, SETUP);

    Path backupDir = primary.baseDir().resolve("backup");
    Path standbyDir = primary.baseDir().resolve("standby");
    Path staleDir = primary.baseDir().resolve("stale-standby");
    ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "copies-under-load");
      t.setDaemon(true);
      return t;
    });
    PostgresCluster standby;
    PostgresCluster stale;
    Marks beforeBackup;
    Marks afterBackup;
    Marks afterStandbyStart;
    Marks loadEnd;
    String loadSummary;
    String churnOutcome;
    String replayTarget;
    try {
      Future<String> load = executor.submit(() -> primary.pgbench(DB, "-c", "4", "-j", "2",
          "-T", Integer.toString(LOAD_SECONDS), "-R", Integer.toString(LOAD_TPS), "-n"));
      Future<String> churn = executor.submit(() -> primary.psql(DB, churnScript()));
      beforeBackup = awaitLoad(primary, load, churn);

      primary.pgBasebackup(backupDir, "-X", "stream");
      afterBackup = marks(primary);

      primary.pgBasebackup(standbyDir, "-R", "-X", "stream");
      standby = keep(PostgresCluster.onDataDirectory(standbyDir));
      standby.start();
      afterStandbyStart = marks(primary);
      primary.pgBasebackup(staleDir, "-R", "-X", "stream");
      stale = keep(PostgresCluster.onDataDirectory(staleDir));
      stale.start();

      loadSummary = outcome(load, LOAD_SECONDS + 60);
      loadEnd = marks(primary);
      primary.psql(DB, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'temp_churn'");
      churnOutcome = outcome(churn, 60);
      if (!loadSummary.startsWith("completed")) {
        throw new IllegalStateException("pgbench failed: " + loadSummary);
      }
    } finally {
      executor.shutdownNow();
    }

    // the stale standby catches up and stops before any checkpoint record after its start
    awaitReplay(stale, primary.queryCsv(DB, "SELECT pg_current_wal_lsn() AS lsn").get(0).get("lsn"));
    stale.stop();
    primary.psql(DB, "CHECKPOINT");
    replayTarget = primary.queryCsv(DB, "SELECT pg_current_wal_lsn() AS lsn").get(0).get("lsn");
    String replayed = awaitReplay(standby, replayTarget);
    standby.stop(); // a restartpoint, fast shutdown, "shut down in recovery" (checked)
    String standbyState = standby.controlState();

    // The truth copies, taken before anything reads the originals. Nothing streams to them:
    // the primary is stopped and their primary_conninfo emptied.
    primary.stop();
    PostgresCluster standbyCopy = keep(PostgresCluster.onCopyOf(standbyDir));
    PostgresCluster backupCopy = keep(PostgresCluster.onCopyOf(backupDir));
    String backupState = PgControlData.field(primary.controlData(backupDir), "Database cluster state");
    boolean backupHasLabel = Files.isRegularFile(backupDir.resolve("backup_label"));

    ARTIFACTS.write("standby-controldata.txt", primary.controlData(standbyDir));
    ARTIFACTS.write("backup-controldata.txt", primary.controlData(backupDir));
    List<Map<String, String>> standbyTruth = truthAsHotStandby(standbyCopy, false);
    ARTIFACTS.write("expected-standby.csv", Report.toCsv(standbyTruth));
    List<Map<String, String>> backupTruth = truthAsHotStandby(backupCopy, true);
    ARTIFACTS.write("expected-backup.csv", Report.toCsv(backupTruth));
    Map<String, BlockChanges> backupChanges = new LinkedHashMap<>();
    StringBuilder changesCsv = new StringBuilder("relation,backup_blocks,recovered_blocks,differing_blocks,bound_points\n");
    for (Map<String, String> row : backupTruth) {
      BlockChanges changes = blockChanges(backupDir, backupCopy.dataDir(), row.get("relpath"));
      backupChanges.put(Report.key(row), changes);
      changesCsv.append(String.format("%s,%d,%d,%d,%.2f%n", Report.key(row), changes.backupBlocks(),
          changes.recoveredBlocks(), changes.differing(), changes.backupBlocks() == 0 ? 0.0 : changes.bound()));
    }
    ARTIFACTS.write("backup-block-changes.csv", changesCsv.toString());

    ToolRun standbyRun = ARTIFACTS.fullScanCsv("standby", standbyDir.toString());
    ToolRun backupRun = ARTIFACTS.fullScanCsv("backup", backupDir.toString());
    ToolRun standbyIndexRun = runIndexTool("standby", standbyDir);
    ToolRun backupIndexRun = runIndexTool("backup", backupDir);
    ToolRun staleStandbyRun = ARTIFACTS.fullScanCsv("stale-standby", staleDir.toString());
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
    return new Copies(standbyDir, backupDir, standbyState, backupState, backupHasLabel, beforeBackup, afterBackup,
        afterStandbyStart, loadEnd, loadSummary, churnOutcome, replayTarget, replayed, standbyTruth, backupTruth,
        backupChanges, standbyRun, backupRun, standbyIndexRun, backupIndexRun, staleStandbyRun, seconds);
  }

  private static String churnScript() {
    StringBuilder script = new StringBuilder("\\o /dev/null\nSET application_name = 'temp_churn';\n");
    for (int i = 1; i <= CHURN_ROUNDS; i++) {
      script.append(CHURN_ROUND.formatted(i, i > 2 ? Integer.toString(i - 2) : "none", i % 1200 + 1));
    }
    return script.toString();
  }

  /** Waits until pgbench has written history rows and the temp session has done a round. */
  private static Marks awaitLoad(PostgresCluster primary, Future<String> load, Future<String> churn) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      for (Future<String> f : List.of(load, churn)) {
        if (f.isDone()) {
          throw new IllegalStateException("a background session ended early: " + outcome(f, 1));
        }
      }
      Marks m = marks(primary);
      if (m.history() > 0 && m.churn() > 0) {
        return m;
      }
      sleep(100);
    }
    throw new IllegalStateException("the load did not start within 30 s");
  }

  private static Marks marks(PostgresCluster primary) {
    Map<String, String> row = primary.queryCsv(DB, "SELECT (SELECT count(*) FROM pgbench_history) AS history,"
        + " (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM churn_rounds) AS churn").get(0);
    return new Marks(Long.parseLong(row.get("history")), Long.parseLong(row.get("churn")));
  }

  /** Waits until the standby has replayed up to {@code lsn}; returns its replay position. */
  private static String awaitReplay(PostgresCluster standby, String lsn) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      Map<String, String> row = standby.queryCsv(DB, "SELECT pg_last_wal_replay_lsn() AS replayed,"
          + " pg_last_wal_replay_lsn() >= '" + lsn + "'::pg_lsn AS done").get(0);
      if ("t".equals(row.get("done"))) {
        return row.get("replayed");
      }
      sleep(100);
    }
    throw new IllegalStateException("the standby did not replay up to " + lsn + " within 60 s");
  }

  /**
   * Starts {@code copy} as a hot standby with nowhere to stream from (standby.signal, empty
   * primary_conninfo): it replays the WAL it holds, opens for reading once consistent, and never
   * prunes. pgstattuple of every permanent user table and TOAST table, twice (must agree).
   * With {@code promote}, it is then promoted and stopped cleanly, so that its files hold
   * everything recovery did (a standby's stop writes its buffers only at a restartpoint).
   */
  private static List<Map<String, String>> truthAsHotStandby(PostgresCluster copy, boolean promote) {
    try {
      Files.writeString(copy.dataDir().resolve("standby.signal"), "");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    copy.setting("primary_conninfo", "''");
    copy.start();
    if (!copy.isInRecovery()) {
      throw new IllegalStateException("the copy at " + copy.dataDir() + " is not in recovery");
    }
    List<Map<String, String>> first = copy.queryCsv(DB, TRUTH_QUERY);
    List<Map<String, String>> second = copy.queryCsv(DB, TRUTH_QUERY);
    if (promote) {
      copy.psql(DB, "SELECT pg_promote(true, 60)");
    }
    copy.stop();
    if (!first.equals(second)) {
      throw new IllegalStateException("pgstattuple changed between two passes on the hot standby " + copy.dataDir());
    }
    List<Map<String, String>> report = new ArrayList<>();
    for (Map<String, String> row : second) {
      Map<String, String> out = new LinkedHashMap<>();
      out.put("database", DB);
      out.put("schema", row.get("schema"));
      out.put("relname", row.get("relname"));
      out.put("relkind", row.get("relkind"));
      out.put("relpath", row.get("relpath"));
      out.put("toast_of", row.get("toast_of"));
      long tableLen = Long.parseLong(row.get("table_len"));
      out.put("blocks", Long.toString(tableLen / BLCKSZ));
      out.put("scanned_blocks", Long.toString(tableLen / BLCKSZ));
      out.put("table_len", row.get("table_len"));
      for (String column : List.of("tuple_count", "tuple_len", "dead_tuple_count", "dead_tuple_len", "free_space")) {
        out.put(column, row.get(column));
      }
      for (String column : List.of("tuple_percent", "dead_tuple_percent", "free_percent")) {
        out.put(column, Report.percent(row.get(column)));
      }
      out.put("bad_pages", "0");
      report.add(out);
    }
    return report;
  }

  /** Compares the main fork {@code relpath} (one segment: these tables are small) in two data directories. */
  private static BlockChanges blockChanges(Path backup, Path recovered, String relpath) {
    try {
      byte[] a = Files.exists(backup.resolve(relpath)) ? Files.readAllBytes(backup.resolve(relpath)) : new byte[0];
      byte[] b = Files.readAllBytes(recovered.resolve(relpath));
      if (Files.exists(backup.resolve(relpath + ".1")) || Files.exists(recovered.resolve(relpath + ".1"))) {
        throw new IllegalStateException(relpath + " has a second segment; this test's tables stay under 1 GB");
      }
      int bs = BLCKSZ;
      long common = Math.min(a.length, b.length) / bs;
      long differing = 0;
      for (int block = 0; block < common; block++) {
        if (!java.util.Arrays.equals(a, block * bs, (block + 1) * bs, b, block * bs, (block + 1) * bs)) {
          differing++;
        }
      }
      return new BlockChanges(a.length / bs, b.length / bs, differing);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The btree indexes of cache ({@code --indexes}, only {@code public.cache*}); the index report is the output. */
  private static ToolRun runIndexTool(String variant, Path dataDir) {
    Path indexCsv = ARTIFACTS.file("tool-" + variant + "-cache-indexes.csv").toAbsolutePath();
    try {
      Files.deleteIfExists(indexCsv);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ToolRun run = ToolRun.of("analyze", "--data-dir", dataDir.toString(), "--full-scan", "--format", "csv",
        "--master", "local[2]", "--indexes", "--table", "public.cache*", "--index-output", indexCsv.toString());
    ARTIFACTS.write("tool-" + variant + "-cache-indexes.err", run.err());
    try {
      String indexes = Files.exists(indexCsv) ? Files.readString(indexCsv, StandardCharsets.UTF_8) : "";
      return new ToolRun(run.status(), indexes, run.err(), run.elapsed());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String outcome(Future<String> session, long seconds) {
    try {
      return "completed: " + session.get(seconds, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      String message = String.valueOf(e.getCause().getMessage());
      return "failed: " + (message.length() <= 600 ? message : message.substring(0, 600) + " ...");
    } catch (TimeoutException e) {
      return "still running after " + seconds + " s";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
