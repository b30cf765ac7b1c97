package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pgbloat.testing.Artifacts;
import io.pgbloat.testing.BuiltOnce;
import io.pgbloat.testing.Clusters;
import io.pgbloat.testing.PgControlData;
import io.pgbloat.testing.PostgresCluster;
import io.pgbloat.testing.Requirement;
import io.pgbloat.testing.ToolRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * End to end, on data directories whose transactions were not all finished: the tool's
 * {@code analyze --full-scan} must print exactly what pgstattuple printed on the server.
 *
 * <ol>
 * <li><b>A prepared transaction that wrote, left prepared through a clean shutdown</b>
 * ({@code open_work}). It inserted rows (at top level and in a released savepoint, so with a
 * subtransaction xid; 100 more subtransactions from PL/pgSQL exception blocks overflow the
 * 64 subxids a PGPROC caches), deleted and updated others (at top level and in a released
 * savepoint), and undid some work with ROLLBACK TO. HeapTupleSatisfiesDirty counts its inserts
 * live (insert in progress) and the rows it deleted live (delete in progress); offline, the
 * tool knows those xids only from the state file {@code pg_twophase/<xid>} (top xid plus its
 * committed-children list). Checked on the stopped data directory after the truth scan and on
 * a raw copy taken before any truth scan (hint bits unset).</li>
 * <li><b>A base backup of a running server</b> ({@code pg_basebackup -X fetch}, wal_level
 * replica). Same tables, plus a session that wrote and is still open (sleeping, not prepared)
 * while the truth is taken and the backup runs. The backup's pg_control comes from the
 * online backup-start checkpoint: state "in production" (the tool must warn, and still exit
 * 0) and {@code oldestActiveXID} set, which is the only thing that tells the tool the open
 * session's xids (no outcome in pg_xact, no pg_twophase file) are in progress.</li>
 * </ol>
 *
 * <p>Dead tuples are made under a horizon pin (a prepared transaction with an xid, never
 * rolled back), as {@link BloatScenario} explains, so nothing prunes them between the truth
 * and the copies. Reports land in {@code target/pgbloat-it/online/}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OnlineCopiesMatchPgstattupleTest {

  private static final Artifacts ARTIFACTS = Artifacts.under("online");
  private static final String WARNING_NOT_SHUT_DOWN =
      "pgbloat: warning: the cluster was not shut down cleanly (pg_control state: in production)";


  /** Tables in database postgres, made and catalogs vacuumed before the pin. */
  private static final String BEFORE_PIN = """
      CREATE EXTENSION pgstattuple;
      CREATE EXTENSION pageinspect;

      -- v is not indexed and pages keep 20 % free: updates of v are mostly HOT
      CREATE TABLE work (id int PRIMARY KEY, v text) WITH (fillfactor = 80);
      INSERT INTO work SELECT g, md5(g::text) FROM generate_series(1, 3000) g;

      -- 3200 bytes of md5 hex per row, stored out of line uncompressed: two TOAST chunks each
      CREATE TABLE docs (id int PRIMARY KEY, body text);
      ALTER TABLE docs ALTER COLUMN body SET STORAGE EXTERNAL;
      INSERT INTO docs
      SELECT g, (SELECT string_agg(md5(g || ':' || j), '') FROM generate_series(1, 100) j)
        FROM generate_series(1, 60) g;

      CREATE TABLE mx (id int PRIMARY KEY, n int NOT NULL);
      INSERT INTO mx SELECT g, 0 FROM generate_series(1, 600) g;

      CREATE TABLE many_subs (id int, v text);

      CREATE TABLE session_work (id int, v text);
      INSERT INTO session_work SELECT g, md5(g::text) FROM generate_series(1, 500) g;
      """;

  private static final String PIN = "BEGIN; SELECT pg_current_xact_id(); PREPARE TRANSACTION 'pin';\n";

  /** Committed dead tuples (under the pin), then the prepared writer, left prepared. */
  private static final String AFTER_PIN = """
      DELETE FROM work WHERE id % 10 = 0;
      UPDATE work SET v = v || '+' WHERE id % 10 = 1;
      BEGIN;
      INSERT INTO work SELECT g, 'rolled back ' || g FROM generate_series(3001, 3200) g;
      ROLLBACK;
      DELETE FROM docs WHERE id % 6 = 0;

      -- a key-share locker, so that open_work's update of mx gets a MultiXact xmax
      BEGIN;
      SELECT count(*) FROM (SELECT id FROM mx WHERE id <= 200 FOR KEY SHARE) s;
      PREPARE TRANSACTION 'mx_locker';

      BEGIN;
      INSERT INTO work SELECT g, 'open ' || g FROM generate_series(4001, 4200) g;             -- xmin: top xid
      SAVEPOINT released;
      INSERT INTO work SELECT g, 'open sub ' || g FROM generate_series(4201, 4400) g;         -- xmin: subxact
      INSERT INTO docs
      SELECT g, (SELECT string_agg(md5('open' || g || ':' || j), '') FROM generate_series(1, 100) j)
        FROM generate_series(101, 120) g;                                                      -- and its TOAST
      RELEASE released;
      SAVEPOINT undone;
      INSERT INTO work SELECT g, 'undone ' || g FROM generate_series(4401, 4500) g;           -- aborted subxact
      ROLLBACK TO undone;
      RELEASE undone;                                     -- ROLLBACK TO keeps the savepoint open: back to top level
      DELETE FROM work WHERE id <= 3000 AND id % 10 = 2;                                       -- xmax: top xid
      DELETE FROM docs WHERE id % 6 = 1;                                                       -- and its TOAST
      SAVEPOINT changes;
      DELETE FROM work WHERE id <= 3000 AND id % 10 = 3;                                       -- xmax: subxact
      UPDATE work SET v = 'open update' WHERE id <= 3000 AND id % 10 = 4;                     -- both: subxact
      RELEASE changes;
      SAVEPOINT undone_delete;
      DELETE FROM work WHERE id <= 3000 AND id % 10 = 5;                                       -- xmax: aborted subxact
      ROLLBACK TO undone_delete;
      RELEASE undone_delete;
      UPDATE work SET v = 'updated again' WHERE id BETWEEN 4001 AND 4050;                     -- its own inserts
      UPDATE mx SET n = n + 1 WHERE id <= 300;                       -- 1..200: MultiXact xmax (locker + updater)
      DO $$
      BEGIN
        FOR i IN 1..100 LOOP
          BEGIN  -- an exception block is a subtransaction; each insert gives it an xid
            INSERT INTO many_subs VALUES (i, 'subxact ' || i);
          EXCEPTION WHEN others THEN NULL;
          END;
        END LOOP;
      END
      $$;
      PREPARE TRANSACTION 'open_work';

      COMMIT PREPARED 'mx_locker';
      """;

  /**
   * A session that writes and stays open (not prepared): it sleeps until cancelled. Only a
   * running server and an online checkpoint's oldestActiveXid know its xids are in progress.
   */
  private static final String OPEN_SESSION = """
      SET application_name = 'open_session';
      BEGIN;
      INSERT INTO session_work SELECT g, 'session ' || g FROM generate_series(501, 600) g;
      DELETE FROM session_work WHERE id <= 50;
      UPDATE session_work SET v = 'session update' WHERE id BETWEEN 51 AND 100;
      SAVEPOINT s;
      INSERT INTO session_work SELECT g, 'session sub ' || g FROM generate_series(601, 650) g;
      RELEASE s;
      SELECT pg_sleep(600);
      COMMIT;
      """;

  /** Tuple header facts per table (pageinspect never prunes), to prove the intended states exist. */
  private static final String PAGE_FACTS = """
      WITH open AS (SELECT transaction::text AS xid FROM pg_prepared_xacts WHERE gid = 'open_work'),
      items AS (
        SELECT r.relname, p.t_xmin, p.t_xmax, p.t_infomask,
               pg_xact_status(p.t_xmin::text::xid8) AS xmin_status,
               CASE WHEN p.t_xmax::text <> '0' AND (p.t_infomask & 4096) = 0
                    THEN pg_xact_status(p.t_xmax::text::xid8) END AS xmax_status
          FROM (VALUES ('work'), ('docs'), ('mx'), ('many_subs'), ('session_work')) r(relname)
         CROSS JOIN LATERAL generate_series(0, (pg_relation_size(r.relname::regclass) / 8192)::int - 1) b
         CROSS JOIN LATERAL heap_page_items(get_raw_page(r.relname, b)) p
         WHERE p.lp_flags = 1)
      SELECT i.relname,
             count(*) FILTER (WHERE t_xmin::text = o.xid) AS xmin_top,
             count(*) FILTER (WHERE t_xmin::text <> o.xid AND xmin_status = 'in progress') AS xmin_other_open,
             count(DISTINCT t_xmin::text) FILTER (WHERE t_xmin::text <> o.xid AND xmin_status = 'in progress')
               AS distinct_other_open_xmins,
             count(*) FILTER (WHERE xmin_status = 'aborted') AS xmin_aborted,
             count(*) FILTER (WHERE (t_infomask & 4096) = 0 AND t_xmax::text = o.xid) AS xmax_top,
             count(*) FILTER (WHERE (t_infomask & 4096) = 0 AND t_xmax::text <> o.xid
                                AND xmax_status = 'in progress') AS xmax_other_open,
             count(*) FILTER (WHERE xmax_status = 'aborted') AS xmax_aborted,
             count(*) FILTER (WHERE (t_infomask & 4096) <> 0 AND (t_infomask & 128) = 0) AS multi_updater
        FROM items i CROSS JOIN open o
       GROUP BY i.relname
       ORDER BY i.relname
      """;

  private final Clusters clusters = new Clusters();
  private final BuiltOnce<Prepared> prepared = new BuiltOnce<>("the prepared-writer case", this::buildPrepared);
  private final BuiltOnce<Backup> backup = new BuiltOnce<>("the base-backup case", this::buildBackup);

  /** Case 1: what was taken from the cluster stopped with open_work still prepared. */
  private record Prepared(PostgresCluster pg, Path raw, List<Map<String, String>> truth,
      Map<String, Map<String, String>> pageFacts, Map<String, String> preparedXids, Set<String> twophaseFiles) {}

  /** Case 2: what was taken from the running cluster and its base backup. */
  private record Backup(PostgresCluster pg, Path dir, List<Map<String, String>> truth,
      List<Map<String, String>> truthAfterBackup, Map<String, Map<String, String>> pageFacts,
      Map<String, String> preparedXids, String sessionXid, String sessionOutcome, Set<String> twophaseFiles,
      String controlData) {}

  @AfterAll
  void closeClusters() {
    clusters.close();
  }

  // ---------------------------------------------------------------- case 1: prepared writer

  @Test
  void preparedWriterScenarioHasTheIntendedStates() {
    Prepared p = prepared();
    List<String> problems = new ArrayList<>();
    expectCommonStates(problems, p.truth(), p.pageFacts());

    // both prepared transactions survived the shutdown as state files, named by their xids
    for (String gid : List.of("pin", "open_work")) {
      String file = stateFileName(p.preparedXids().get(gid));
      if (!p.twophaseFiles().contains(file)) {
        problems.add("raw copy: no pg_twophase/" + file + " for '" + gid + "'; pg_twophase has " + p.twophaseFiles());
      }
    }
    if (!problems.isEmpty()) {
      fail("the prepared-writer scenario did not build the intended states:\n  " + String.join("\n  ", problems));
    }
  }

  @Test
  void stoppedDataDirectoryWithAPreparedWriterMatchesPgstattuple() {
    Prepared p = prepared();
    ToolRun run = ARTIFACTS.fullScanCsv("prepared-pgdata", p.pg().dataDir().toString());
    List<String> problems = differences(p.truth(), run);
    if (run.err().contains("not shut down cleanly")) {
      problems.add("unexpected warning on a cleanly stopped cluster:\n" + run.err());
    }
    failIfAny("prepared-pgdata", p.pg().dataDir(), p.truth(), problems);
  }

  @Test
  void rawCopyWithAPreparedWriterMatchesPgstattuple() {
    Prepared p = prepared();
    ToolRun run = ARTIFACTS.fullScanCsv("prepared-raw", p.raw().toString());
    failIfAny("prepared-raw", p.raw(), p.truth(), differences(p.truth(), run));
  }

  // ---------------------------------------------------------------- case 2: base backup

  @Test
  void baseBackupScenarioHasTheIntendedStates() {
    Backup b = backup();
    List<String> problems = new ArrayList<>();
    expectCommonStates(problems, b.truth(), b.pageFacts());
    expect(problems, b.truth(), "session_work", "tuple_count", "700");
    expect(problems, b.truth(), "session_work", "dead_tuple_count", "0");
    Map<String, String> session = b.pageFacts().get("session_work");
    if (session == null || Long.parseLong(session.get("xmin_other_open")) != 200
        || Long.parseLong(session.get("xmax_other_open")) != 100) {
      problems.add("session_work: expected 200 tuples inserted and 100 deleted by the open session, pageinspect says "
          + session);
    }

    if (!b.truth().equals(b.truthAfterBackup())) {
      problems.add("pgstattuple changed while pg_basebackup ran; the backup no longer describes the truth");
    }
    if (!b.sessionOutcome().contains("canceling statement due to user request")) {
      problems.add("the open session should have been cancelled after the backup, it ended with: "
          + b.sessionOutcome());
    }

    // the backup's pg_control: an online checkpoint, with oldestActiveXID at or before the open session
    String state = PgControlData.field(b.controlData(), "Database cluster state");
    if (!"in production".equals(state)) {
      problems.add("backup pg_control: state '" + state + "', expected 'in production'");
    }
    long oldestActive = Long.parseLong(PgControlData.field(b.controlData(), "Latest checkpoint's oldestActiveXID"));
    long sessionXid = Long.parseLong(b.sessionXid());
    if (oldestActive < 3 || oldestActive > sessionXid) {
      problems.add("backup pg_control: oldestActiveXID " + oldestActive + " should be a normal xid at or before the"
          + " open session's xid " + sessionXid);
    }
    if (!Files.isRegularFile(b.dir().resolve("backup_label"))) {
      problems.add("the backup has no backup_label");
    }
    // prepared transactions are in pg_twophase; the open session is not, only oldestActiveXID covers it
    for (String gid : List.of("pin", "open_work")) {
      String file = stateFileName(b.preparedXids().get(gid));
      if (!b.twophaseFiles().contains(file)) {
        problems.add("backup: no pg_twophase/" + file + " for '" + gid + "'; pg_twophase has " + b.twophaseFiles());
      }
    }
    if (b.twophaseFiles().contains(stateFileName(b.sessionXid()))) {
      problems.add("backup: the open session " + b.sessionXid() + " should have no pg_twophase file");
    }
    if (!problems.isEmpty()) {
      fail("the base-backup scenario did not build the intended states:\n  " + String.join("\n  ", problems));
    }
  }

  @Test
  void baseBackupOfARunningServerMatchesPgstattuple() {
    Backup b = backup();
    ToolRun run = ARTIFACTS.fullScanCsv("basebackup", b.dir().toString());
    List<String> problems = differences(b.truth(), run);
    if (run.err().lines().noneMatch(line -> line.startsWith(WARNING_NOT_SHUT_DOWN))) {
      problems.add("no line starting with '" + WARNING_NOT_SHUT_DOWN + "' on stderr:\n" + run.err());
    }
    failIfAny("basebackup", b.dir(), b.truth(), problems);
  }

  // ---------------------------------------------------------------- building the cases

  private Prepared prepared() {
    PostgresCluster.assumeServer();
    return prepared.get();
  }

  private Backup backup() {
    PostgresCluster.assumeServer();
    Requirement.require(Files.isExecutable(PostgresCluster.binDir().resolve("pg_basebackup")) ? ""
        : "pg_basebackup not found in " + PostgresCluster.binDir());
    return backup.get();
  }

  private PostgresCluster newCluster(PostgresCluster.Builder builder) {
    return clusters.keep(builder.init());
  }

  private static void buildScenario(PostgresCluster pg) {
    // template1 is reported too, so the truth needs pgstattuple there
    pg.psql("template1", "CREATE EXTENSION pgstattuple;\n" + BloatScenario.VACUUM_CATALOGS);
    pg.psql("postgres", BEFORE_PIN + BloatScenario.VACUUM_CATALOGS + PIN + AFTER_PIN);
  }

  private Prepared buildPrepared() {
    PostgresCluster pg = newCluster(PostgresCluster.builder().dataChecksums(true));
    pg.start();
    buildScenario(pg);
    pg.stop(); // CHECKPOINT, fast shutdown, "shut down"; pin and open_work stay prepared

    // Before any truth scan: the files exactly as the shutdown left them.
    Path raw = pg.baseDir().resolve("raw");
    pg.copyDataDirTo(raw);
    Set<String> twophase = listNames(raw.resolve("pg_twophase"));

    pg.start();
    List<Map<String, String>> truth = Truth.take(pg);
    Map<String, Map<String, String>> facts = pageFacts(pg);
    Map<String, String> xids = preparedXids(pg);
    pg.stop();

    ARTIFACTS.write("expected-prepared.csv", Report.toCsv(truth));
    return new Prepared(pg, raw, truth, facts, xids, twophase);
  }

  private Backup buildBackup() {
    PostgresCluster pg = newCluster(PostgresCluster.builder().dataChecksums(true)
        .setting("wal_level", "replica")
        .setting("max_wal_senders", "2"));
    pg.start();
    buildScenario(pg);

    ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "open-session");
      t.setDaemon(true);
      return t;
    });
    try {
      Future<String> session = executor.submit(() -> pg.psql("postgres", OPEN_SESSION));
      String sessionXid = awaitSleepingSession(pg, session);

      List<Map<String, String>> truth = Truth.take(pg);
      Map<String, Map<String, String>> facts = pageFacts(pg);
      Map<String, String> xids = preparedXids(pg);

      Path dir = pg.baseDir().resolve("backup");
      pg.pgBasebackup(dir);
      List<Map<String, String>> after = Truth.take(pg);

      // The backup is its own directory: what the server does next cannot change it.
      pg.psql("postgres", "SELECT pg_cancel_backend(pid) FROM pg_stat_activity"
          + " WHERE application_name = 'open_session'");
      String outcome = outcome(session);

      ARTIFACTS.write("expected-basebackup.csv", Report.toCsv(truth));
      return new Backup(pg, dir, truth, after, facts, xids, sessionXid, outcome,
          listNames(dir.resolve("pg_twophase")), pg.controlData(dir));
    } finally {
      executor.shutdownNow();
    }
  }

  /** Waits until the open session has written and sleeps; returns its top xid. */
  private static String awaitSleepingSession(PostgresCluster pg, Future<String> session) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (session.isDone()) {
        throw new IllegalStateException("the open session ended early: " + outcome(session));
      }
      List<Map<String, String>> rows = pg.queryCsv("postgres", "SELECT backend_xid FROM pg_stat_activity"
          + " WHERE application_name = 'open_session' AND wait_event = 'PgSleep' AND backend_xid IS NOT NULL");
      if (!rows.isEmpty()) {
        return rows.get(0).get("backend_xid");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new IllegalStateException("the open session did not reach pg_sleep within 60 s");
  }

  /** How the session's psql ended: its output, or the error it failed with. */
  private static String outcome(Future<String> session) {
    try {
      return "completed: " + session.get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return "failed: " + e.getCause().getMessage();
    } catch (TimeoutException e) {
      return "still running after 60 s";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  private static Map<String, Map<String, String>> pageFacts(PostgresCluster pg) {
    Map<String, Map<String, String>> facts = new LinkedHashMap<>();
    for (Map<String, String> row : pg.queryCsv("postgres", PAGE_FACTS)) {
      facts.put(row.get("relname"), row);
    }
    return facts;
  }

  private static Map<String, String> preparedXids(PostgresCluster pg) {
    return pg.queryCsv("postgres", "SELECT gid, transaction FROM pg_prepared_xacts ORDER BY gid").stream()
        .collect(Collectors.toMap(r -> r.get("gid"), r -> r.get("transaction"), (a, b) -> a, LinkedHashMap::new));
  }

  // ---------------------------------------------------------------- the intended states

  /**
   * What AFTER_PIN must leave behind, in pgstattuple's terms and in the tuple headers.
   * work: 3000 rows; committed: 300 deleted (dead), 300 updated (300 dead old versions), 200
   * inserted and rolled back (dead); open_work: 400 inserted (200 at top level, 200 in a
   * released savepoint), 100 inserted in a rolled-back savepoint (dead), 300 deleted at top
   * level and 300 in a savepoint (all still live), 300 updated in a savepoint (old and new
   * versions live), 50 of its own inserts updated. Live 2700 + 400 + 300 + 50, dead 900.
   */
  private static void expectCommonStates(List<String> problems, List<Map<String, String>> truth,
      Map<String, Map<String, String>> facts) {
    expect(problems, truth, "work", "tuple_count", "3450");
    expect(problems, truth, "work", "dead_tuple_count", "900");
    expect(problems, truth, "docs", "tuple_count", "70");
    expect(problems, truth, "docs", "dead_tuple_count", "10");
    expect(problems, truth, "mx", "tuple_count", "900");
    expect(problems, truth, "mx", "dead_tuple_count", "0");
    expect(problems, truth, "many_subs", "tuple_count", "100");
    Map<String, String> docsToast = truth.stream()
        .filter(r -> r.get("database").equals("postgres") && r.get("toast_of").equals("public.docs"))
        .findFirst().orElse(null);
    if (docsToast == null || !"140".equals(docsToast.get("tuple_count"))
        || !"20".equals(docsToast.get("dead_tuple_count"))) {
      problems.add("toast of docs: expected 140 live and 20 dead chunks, truth has " + docsToast);
    }

    atLeast(problems, facts, "work", "xmin_top", 250);              // 200 inserts + 50 new versions
    atLeast(problems, facts, "work", "xmin_other_open", 500);       // 200 inserts + 300 new versions in savepoints
    atLeast(problems, facts, "work", "xmin_aborted", 300);          // rolled-back transaction + savepoint
    atLeast(problems, facts, "work", "xmax_top", 350);              // 300 deletes + 50 updates of own inserts
    atLeast(problems, facts, "work", "xmax_other_open", 600);       // 300 deletes + 300 updates in a savepoint
    atLeast(problems, facts, "work", "xmax_aborted", 300);          // deletes rolled back to a savepoint
    atLeast(problems, facts, "docs", "xmin_other_open", 20);
    atLeast(problems, facts, "docs", "xmax_top", 10);
    atLeast(problems, facts, "mx", "multi_updater", 200);
    atLeast(problems, facts, "many_subs", "distinct_other_open_xmins", 100); // > 64: subxid cache overflowed
  }

  private static void expect(List<String> problems, List<Map<String, String>> truth, String relname, String column,
      String value) {
    Map<String, String> row = truth.stream()
        .filter(r -> r.get("database").equals("postgres") && r.get("schema").equals("public")
            && r.get("relname").equals(relname))
        .findFirst().orElse(null);
    if (row == null || !value.equals(row.get(column))) {
      problems.add("postgres:public." + relname + ": expected " + column + " = " + value + ", truth has " + row);
    }
  }

  private static void atLeast(List<String> problems, Map<String, Map<String, String>> facts, String relname,
      String fact, long minimum) {
    Map<String, String> row = facts.get(relname);
    if (row == null || Long.parseLong(row.get(fact)) < minimum) {
      problems.add(relname + ": expected " + fact + " >= " + minimum + ", pageinspect says " + row);
    }
  }

  private static String stateFileName(String xid) {
    return String.format("%08X", Long.parseLong(xid));
  }

  private static Set<String> listNames(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---------------------------------------------------------------- running the tool

  private static List<String> differences(List<Map<String, String>> truth, ToolRun run) {
    List<String> problems = new ArrayList<>();
    if (run.status() != 0) {
      String err = run.err();
      problems.add("exit code " + run.status() + " (expected 0); stderr:\n"
          + (err.length() <= 3000 ? err : "..." + err.substring(err.length() - 3000)));
    }
    problems.addAll(Report.differences(truth, run.out()));
    return problems;
  }

  private static void failIfAny(String variant, Path dataDir, List<Map<String, String>> truth, List<String> problems) {
    if (problems.isEmpty()) {
      return;
    }
    int shown = Math.min(problems.size(), 300);
    fail(variant + " (" + dataDir + "): " + problems.size() + " difference(s) from pgstattuple over "
        + truth.size() + " relations; see " + ARTIFACTS.dir().toAbsolutePath() + "/tool-" + variant + ".csv\n  "
        + String.join("\n  ", problems.subList(0, shown))
        + (shown < problems.size() ? "\n  ... and " + (problems.size() - shown) + " more" : ""));
  }
}
