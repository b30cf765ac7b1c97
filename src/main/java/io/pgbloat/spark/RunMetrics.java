package io.pgbloat.spark;

import io.pgbloat.io.read.IoSettings;
import io.pgbloat.io.read.ReadTotals;

/**
 * How the scan went, so a user can see whether the disk was the limit.
 *
 * @param reads what all tasks read
 * @param ranges ranges (tasks) the blocks were cut into
 * @param scanSeconds wall time of the Spark job that read the blocks
 * @param parallelism Spark's default parallelism (cores) during the scan
 * @param executors executors that ran tasks (1 in local mode)
 * @param io how the blocks were read
 * @param inDriver whether the blocks were counted in the driver's thread, not by Spark tasks
 * @param plan how long the driver took to read the catalog and plan, before any job, and what it
 *     asked of a remote store (none until
 *     {@link #planned})
 */
public record RunMetrics(ReadTotals reads, int ranges, double scanSeconds, int parallelism,
    int executors, IoSettings io, boolean inDriver, AnalysisPlan.PlanningCost plan) {

  /** A scan's figures, before the plan's are added. */
  public RunMetrics(ReadTotals reads, int ranges, double scanSeconds, int parallelism, int executors, IoSettings io,
      boolean inDriver) {
    this(reads, ranges, scanSeconds, parallelism, executors, io, inDriver, AnalysisPlan.PlanningCost.NONE);
  }

  /** These figures with the plan's cost. */
  public RunMetrics planned(AnalysisPlan.PlanningCost cost) {
    return new RunMetrics(reads, ranges, scanSeconds, parallelism, executors, io, inDriver, cost);
  }
  /** The seconds the blocks read were counted in: the tasks', and a backup's counted as it was indexed. */
  public double countingSeconds() {
    return scanSeconds + plan.countingSeconds();
  }

  /** Both runs of a two-phase (target-RSE) analysis together. */
  public RunMetrics plus(RunMetrics other) {
    return new RunMetrics(reads.plus(other.reads), ranges + other.ranges,
        scanSeconds + other.scanSeconds, parallelism, executors, io, inDriver && other.inDriver, plan);
  }
}
