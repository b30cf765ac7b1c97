package io.pgbloat.spark;

/** Told how far a scan has got: blocks in finished ranges, of the blocks planned. */
@FunctionalInterface
public interface ScanProgress {
  ScanProgress NONE = (done, planned) -> {};

  /** Called on the driver as ranges finish, and once at the end with {@code done == planned}. */
  void update(long blocksDone, long blocksPlanned);
}
