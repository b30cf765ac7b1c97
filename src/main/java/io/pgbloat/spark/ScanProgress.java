package io.pgbloat.spark;

/** Told how far a scan has got: blocks in finished ranges, of the blocks planned. */
@FunctionalInterface
public interface ScanProgress {
  ScanProgress NONE = (done, planned) -> {};

  /** Called on the driver as ranges finish (from Spark's listener thread), and with {@code done == planned} after the scan. */
  void update(long blocksDone, long blocksPlanned);
}
