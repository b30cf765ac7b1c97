package io.pgbloat.testing;

import org.apache.spark.sql.SparkSession;

/**
 * A SparkSession on local threads in this JVM, as the tests and benchmarks that call Spark
 * themselves (not through the command line) build it: no web UI, no console progress bar.
 */
public final class LocalSpark {
  private LocalSpark() {}

  /** The session {@code local[threads]} named {@code appName}, or the one already open in this JVM. */
  public static SparkSession session(String appName, int threads) {
    return SparkSession.builder().master("local[" + threads + "]").appName(appName)
        .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").getOrCreate();
  }

  /**
   * Stops {@code spark} and forgets it as this thread's active and the JVM's default session,
   * so that a later builder in the same JVM starts a session of its own instead of reusing it.
   */
  public static void stop(SparkSession spark) {
    spark.stop();
    SparkSession.clearActiveSession();
    SparkSession.clearDefaultSession();
  }
}
