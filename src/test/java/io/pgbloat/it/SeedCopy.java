package io.pgbloat.it;

import io.pgbloat.testing.PostgresCluster;
import io.pgbloat.testing.workload.CopyForm;
import io.pgbloat.testing.workload.WorkloadPlan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A seed's workload run on a real server and copied in the seed's {@link CopyForm}: the
 * directory the tool reads, what the server's functions say of it, and a server whose data is
 * what the tool read, where REINDEX and VACUUM FULL can be tried. Every server is stopped when
 * {@link #make} returns.
 *
 * @param read the directory the tool reads
 * @param tableTruth pgstattuple of every table, TOAST table and materialized view ({@link Truth})
 *     but those of {@link #LOAD_DATABASE}
 * @param indexTruth pgstatindex and its kin of the public indexes ({@link IndexTruth})
 * @param rebuildServer a stopped server over the data the tool read; the rebuilds run there
 * @param servers every server the copy made, {@code rebuildServer} among them; closed with this
 *     copy, the last made first
 */
record SeedCopy(Path read, List<Map<String, String>> tableTruth, List<Map<String, String>> indexTruth,
    PostgresCluster rebuildServer, List<PostgresCluster> servers) implements AutoCloseable {

  /**
   * The database the online form's load writes while the files are copied. A page copied while
   * it is written is made consistent only by WAL replay, which the tool does not do: its
   * relations are left out of the comparison.
   */
  static final String LOAD_DATABASE = "load";

  /** The load: one row updated and one appended a round, each round its own transaction, until told to stop. */
  private static final String LOAD_SETUP = """
      CREATE TABLE ledger (id int PRIMARY KEY, n int NOT NULL, pad text);
      INSERT INTO ledger SELECT g, 0, repeat('x', 200) FROM generate_series(1, 2000) g;
      CREATE TABLE journal (round int, at timestamptz DEFAULT now());
      CREATE TABLE progress (rounds int NOT NULL);
      INSERT INTO progress VALUES (0);
      CREATE TABLE stop_load ();
      CREATE PROCEDURE load() LANGUAGE plpgsql AS $$
      DECLARE
        i int := 0;
      BEGIN
        LOOP
          UPDATE ledger SET n = n + 1 WHERE id = 1 + (i * 797) % 2000;
          INSERT INTO journal (round) VALUES (i);
          UPDATE progress SET rounds = rounds + 1;
          COMMIT;
          EXIT WHEN EXISTS (SELECT FROM stop_load);
          PERFORM pg_sleep(0.002);
          i := i + 1;
        END LOOP;
      END $$;
      """;
  private static final String ROUNDS = "SELECT rounds FROM progress";
  /** The longest wait for the load to start or end, or for the standby to replay (a loaded machine replays slowly). */
  private static final int WAIT_SECONDS = 120;

  /** Runs the plan's script on a new server of its major and makes the copy. */
  static SeedCopy make(WorkloadPlan plan) {
    CopyForm form = plan.copyForm();
    PostgresCluster.Builder builder = PostgresCluster.builder().version(plan.major());
    if (form == CopyForm.ONLINE || form == CopyForm.STANDBY) {
      builder.setting("wal_level", "replica").setting("max_wal_senders", "4");
    }
    List<PostgresCluster> servers = new ArrayList<>();
    try {
      PostgresCluster pg = keep(servers, builder.init());
      pg.start();
      PostgresCluster standby = form == CopyForm.STANDBY ? startedStandby(pg, servers) : null;
      pg.psql("postgres", plan.sql());
      pg.psql("template1", "CREATE EXTENSION pgstattuple;"); // the truth scans every database
      return switch (form) {
        case CLEAN, RAW -> stoppedCopy(pg, form, servers);
        case ONLINE -> onlineCopy(pg, servers);
        case STANDBY -> standbyCopy(pg, standby, servers);
      };
    } catch (RuntimeException e) {
      closeAll(servers, e);
      throw e;
    }
  }

  /**
   * The clean form reads the stopped directory after the truth; the raw form copies it before
   * anything reads it again. pgstatindex and its kin read index pages, which neither the restart
   * nor the heap scans change: they stand for the raw form's copy too. They go first, since
   * their catalog lookups can prune catalog pages of the clean form, and the heap truth must see
   * the result.
   */
  private static SeedCopy stoppedCopy(PostgresCluster pg, CopyForm form, List<PostgresCluster> servers) {
    pg.stop();
    Path read = pg.dataDir();
    if (form == CopyForm.RAW) {
      read = pg.baseDir().resolve("raw");
      pg.copyDataDirTo(read);
    }
    pg.start();
    List<Map<String, String>> indexTruth = IndexTruth.take(pg, "postgres");
    List<Map<String, String>> tableTruth = Truth.take(pg);
    pg.stop();
    return new SeedCopy(read, tableTruth, indexTruth, pg, servers);
  }

  /**
   * A low-level online copy taken while {@link #LOAD_DATABASE}'s load commits a transaction
   * every few milliseconds (checked: it committed some while the files were copied). The truth
   * and the rebuilds are a server's on a second copy, recovered to the backup's end, which
   * resets the unlogged relations to their init forks as a restore does.
   */
  private static SeedCopy onlineCopy(PostgresCluster pg, List<PostgresCluster> servers) {
    pg.psql("postgres", "CREATE DATABASE " + LOAD_DATABASE + ";");
    pg.psql(LOAD_DATABASE, LOAD_SETUP);
    ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "seed-load");
      t.setDaemon(true);
      return t;
    });
    Path read = pg.baseDir().resolve("online");
    try {
      Future<String> load = executor.submit(() -> pg.psql(LOAD_DATABASE, "CALL load();"));
      long before = awaitRounds(pg, load, 1);
      pg.onlineCopyTo(read);
      long after = rounds(pg);
      if (load.isDone() || after <= before) {
        throw new IllegalStateException("the load did not commit while the files were copied (rounds " + before
            + " -> " + after + ")");
      }
      pg.psql(LOAD_DATABASE, "INSERT INTO stop_load DEFAULT VALUES;");
      load.get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("the load failed: " + e.getMessage(), e);
    } finally {
      executor.shutdownNow();
    }
    pg.stop();
    return recoveredCopy(read, servers);
  }

  /**
   * A streaming standby of {@code primary}, started before the workload so that it replays all
   * of it: made from a low-level online copy (the fetched servers have no pg_basebackup), told
   * to stream from the primary's socket.
   */
  private static PostgresCluster startedStandby(PostgresCluster primary, List<PostgresCluster> servers) {
    Path dir = primary.baseDir().resolve("standby");
    primary.onlineCopyTo(dir);
    try {
      Files.writeString(dir.resolve("standby.signal"), "");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    PostgresCluster standby = keep(servers, PostgresCluster.onDataDirectory(dir));
    standby.setting("primary_conninfo", "'host=" + primary.socketDir() + " port=" + primary.port() + " user="
        + PostgresCluster.SUPERUSER + "'");
    standby.start();
    return standby;
  }

  /**
   * The standby stopped once it replayed a checkpoint taken after everything: its stop is then
   * a restartpoint that writes every page it replayed, so its files are the workload's whole.
   */
  private static SeedCopy standbyCopy(PostgresCluster primary, PostgresCluster standby,
      List<PostgresCluster> servers) {
    primary.psql("postgres", "CHECKPOINT;");
    String lsn = primary.queryCsv("postgres", "SELECT pg_current_wal_lsn() AS lsn").get(0).get("lsn");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (!"t".equals(standby.queryCsv("postgres",
        "SELECT pg_last_wal_replay_lsn() >= '" + lsn + "'::pg_lsn AS done").get(0).get("done"))) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the standby did not replay up to " + lsn);
      }
      pause();
    }
    standby.stop();
    primary.stop();
    return recoveredCopy(standby.dataDir(), servers);
  }

  /**
   * The truth of a copy read as the files are: a server on a second copy of {@code read},
   * started as a primary (a standby's signal file taken away), so that it recovers from the WAL
   * the copy holds and ends recovery, resetting the unlogged relations as a restore does. The
   * workload's horizon pin keeps its scans from pruning; the rebuilds run there.
   */
  private static SeedCopy recoveredCopy(Path read, List<PostgresCluster> servers) {
    PostgresCluster recovered = keep(servers, PostgresCluster.onCopyOf(read));
    try {
      Files.deleteIfExists(recovered.dataDir().resolve("standby.signal"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    recovered.start();
    recovered.awaitEndOfRecovery();
    List<Map<String, String>> indexTruth = IndexTruth.take(recovered, "postgres");
    List<Map<String, String>> tableTruth = Truth.take(recovered, Set.of(LOAD_DATABASE));
    recovered.stop();
    return new SeedCopy(read, tableTruth, indexTruth, recovered, servers);
  }

  private static long awaitRounds(PostgresCluster pg, Future<String> load, long atLeast) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    long rounds;
    while ((rounds = rounds(pg)) < atLeast) {
      if (load.isDone() || System.nanoTime() > deadline) {
        throw new IllegalStateException("the load did not start");
      }
      pause();
    }
    return rounds;
  }

  private static long rounds(PostgresCluster pg) {
    return Long.parseLong(pg.queryCsv(LOAD_DATABASE, ROUNDS).get(0).get("rounds"));
  }

  private static void pause() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static PostgresCluster keep(List<PostgresCluster> servers, PostgresCluster pg) {
    servers.add(pg);
    return pg;
  }

  private static void closeAll(List<PostgresCluster> servers, RuntimeException failure) {
    for (int i = servers.size() - 1; i >= 0; i--) {
      try {
        servers.get(i).close();
      } catch (RuntimeException e) {
        failure.addSuppressed(e);
      }
    }
  }

  @Override
  public void close() {
    RuntimeException failure = new IllegalStateException("closing the seed's servers failed");
    closeAll(servers, failure);
    if (failure.getSuppressed().length > 0) {
      throw failure;
    }
  }
}
