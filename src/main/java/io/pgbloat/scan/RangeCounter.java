package io.pgbloat.scan;

import io.pgbloat.io.store.FileStore;
import io.pgbloat.sample.ScanRange;
import java.io.Serializable;

/**
 * Counts one {@link ScanRange}: a task's work on tables ({@link RangeScanner}) or indexes
 * ({@link IndexRangeScanner}), without Spark.
 *
 * @param <R> what a range yields
 */
public interface RangeCounter<R> {
  R count(ScanRange range);

  /**
   * How an executor makes its counter from the data directory it opened; serializable, so the
   * driver ships it with the task.
   */
  @FunctionalInterface
  interface Factory<R> extends Serializable {
    RangeCounter<R> on(FileStore files);
  }
}
