package io.pgbloat.spark;

import io.pgbloat.io.IoSettings;
import io.pgbloat.page.PageHeader;

/**
 * How the scan went, so a user can see whether the disk was the limit.
 *
 * @param blocksRead blocks read by all tasks
 * @param readCalls read requests issued
 * @param ranges ranges (tasks) the blocks were cut into
 * @param scanSeconds wall time of the Spark job that read the blocks
 * @param parallelism Spark's default parallelism (cores) during the scan
 * @param executors executors that ran tasks (1 in local mode)
 * @param io how the blocks were read
 */
public record RunMetrics(long blocksRead, long readCalls, int ranges, double scanSeconds, int parallelism,
    int executors, IoSettings io) {
  /** Both runs of a two-phase (target-RSE) analysis together. */
  public RunMetrics plus(RunMetrics other) {
    return new RunMetrics(blocksRead + other.blocksRead, readCalls + other.readCalls, ranges + other.ranges,
        scanSeconds + other.scanSeconds, parallelism, executors, io);
  }

  public long bytesRead() {
    return blocksRead * PageHeader.BLCKSZ;
  }
}
