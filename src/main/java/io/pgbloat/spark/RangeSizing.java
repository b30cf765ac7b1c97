package io.pgbloat.spark;

import org.apache.spark.SparkContext;

/**
 * How a job's blocks are cut into ranges (one task each): for how many cores, and how small a
 * range may be. The smallest range is Spark property {@value #MIN_RANGE_BLOCKS_PROPERTY}
 * (default {@value #DEFAULT_MIN_RANGE_BLOCKS} blocks, 8 MB: below it a task's own overhead
 * outweighs its reading); lower it to spread a small sample over more cores.
 *
 * @param parallelism the cores the job runs on (Spark's default parallelism)
 * @param minRangeBlocks the fewest blocks a range is cut to
 */
public record RangeSizing(int parallelism, long minRangeBlocks) {
  public static final String MIN_RANGE_BLOCKS_PROPERTY = "spark.pgbloat.minRangeBlocks";
  public static final long DEFAULT_MIN_RANGE_BLOCKS = 1024;

  public RangeSizing {
    if (minRangeBlocks < 1) {
      throw new IllegalArgumentException(MIN_RANGE_BLOCKS_PROPERTY + " must be at least 1, not " + minRangeBlocks);
    }
  }

  /** The sizing of jobs on {@code spark}. */
  public static RangeSizing of(SparkContext spark) {
    return new RangeSizing(spark.defaultParallelism(),
        spark.getConf().getLong(MIN_RANGE_BLOCKS_PROPERTY, DEFAULT_MIN_RANGE_BLOCKS));
  }
}
