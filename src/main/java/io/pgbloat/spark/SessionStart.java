package io.pgbloat.spark;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;

/**
 * A Spark session a standalone run starts for itself: in the background as soon as the data
 * directory is open, so that it comes up while the driver plans ({@link #inBackground}), or
 * only once something needs it ({@link #onDemand}): a compressed backup whose pages were all
 * counted as it was indexed needs no task, and on two cores a session starting beside that
 * decode slows it. {@link #get} waits for it; {@link #stop} stops it if it was started.
 */
final class SessionStart {
  private final Supplier<SparkSession> factory;
  private CompletableFuture<SparkSession> starting;

  private SessionStart(Supplier<SparkSession> factory) {
    this.factory = factory;
  }

  /** Starts the session now, in the background. */
  static SessionStart inBackground(Supplier<SparkSession> factory) {
    SessionStart start = new SessionStart(factory);
    start.starting = CompletableFuture.supplyAsync(start::started);
    return start;
  }

  /** Starts the session when {@link #get} is first called. */
  static SessionStart onDemand(Supplier<SparkSession> factory) {
    return new SessionStart(factory);
  }

  /** The session, started and warmed up ({@link BloatAnalyzer#prepare}). */
  synchronized SparkSession get() {
    if (starting == null) {
      starting = CompletableFuture.completedFuture(started());
    }
    return starting.join();
  }

  /** Stops the session if it was started (waiting for a start under way). */
  synchronized void stop() {
    if (starting != null) {
      starting.join().stop();
    }
  }

  private SparkSession started() {
    SparkSession spark = factory.get();
    try {
      BloatAnalyzer.prepare(spark);
    } catch (RuntimeException e) {
      spark.stop(); // no one else has it to stop
      throw e;
    }
    return spark;
  }
}
