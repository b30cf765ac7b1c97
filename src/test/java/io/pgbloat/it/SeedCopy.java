package io.pgbloat.it;

import io.pgbloat.testing.PostgresCluster;
import io.pgbloat.testing.workload.CopyForm;
import io.pgbloat.testing.workload.WorkloadPlan;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A seed's workload run on a real server and copied in the seed's {@link CopyForm}: the
 * directory the tool reads, what the server's functions say of it, and a server whose data is
 * what the tool read, where REINDEX and VACUUM FULL can be tried. Every server is stopped when
 * {@link #make} returns.
 *
 * @param read the directory the tool reads
 * @param tableTruth pgstattuple of every table, TOAST table and materialized view ({@link Truth})
 * @param indexTruth pgstatindex and its kin of the public indexes ({@link IndexTruth})
 * @param rebuildServer a stopped server over the data the tool read; the rebuilds run there
 * @param primary the server the workload ran on (the same as {@code rebuildServer} unless the
 *     form makes a server of its own for the copy); closed with this copy
 */
record SeedCopy(Path read, List<Map<String, String>> tableTruth, List<Map<String, String>> indexTruth,
    PostgresCluster rebuildServer, PostgresCluster primary) implements AutoCloseable {

  /** Runs the plan's script on a new server of its major and makes the copy. */
  static SeedCopy make(WorkloadPlan plan) {
    PostgresCluster pg = PostgresCluster.builder().version(plan.major()).init();
    try {
      pg.start();
      pg.psql("postgres", plan.sql());
      pg.psql("template1", "CREATE EXTENSION pgstattuple;"); // the truth scans every database
      return switch (plan.copyForm()) {
        case CLEAN, RAW -> stoppedCopy(pg, plan.copyForm());
      };
    } catch (RuntimeException e) {
      pg.close();
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
  private static SeedCopy stoppedCopy(PostgresCluster pg, CopyForm form) {
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
    return new SeedCopy(read, tableTruth, indexTruth, pg, pg);
  }

  @Override
  public void close() {
    if (rebuildServer != primary) {
      rebuildServer.close();
    }
    primary.close();
  }
}
