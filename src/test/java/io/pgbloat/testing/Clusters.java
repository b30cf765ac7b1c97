package io.pgbloat.testing;

import java.util.ArrayList;
import java.util.List;

/** The clusters a test class made, closed together; one failing to close does not keep the rest open. */
public final class Clusters implements AutoCloseable {
  private final List<PostgresCluster> clusters = new ArrayList<>();

  /** Keeps {@code pg} to close it with the others; returns it. */
  public synchronized PostgresCluster keep(PostgresCluster pg) {
    clusters.add(pg);
    return pg;
  }

  @Override
  public synchronized void close() {
    RuntimeException failure = null;
    for (PostgresCluster pg : clusters) {
      try {
        pg.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    clusters.clear();
    if (failure != null) {
      throw failure;
    }
  }
}
