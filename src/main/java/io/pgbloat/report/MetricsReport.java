package io.pgbloat.report;

import io.pgbloat.io.store.StoreRequests;
import io.pgbloat.spark.RunMetrics;
import java.io.PrintWriter;
import java.util.Locale;

/** The run's figures as one JSON object (--metrics-out). */
public final class MetricsReport {
  private MetricsReport() {}

  /**
   * @param jobSeconds wall time of the whole analysis: catalog, planning and scan
   */
  public static void write(RunMetrics m, double jobSeconds, PrintWriter out) {
    double mb = m.reads().bytes() / 1e6;
    StoreRequests requests = m.reads().requests().plus(m.plan().requests());
    out.printf(Locale.ROOT, "{\"blocks_read\": %d, \"gap_blocks_read\": %d, \"bytes_read\": %d, \"read_calls\": %d, "
            + "\"ranges\": %d, "
            + "\"scan_seconds\": %.3f, \"job_seconds\": %.3f, \"scan_mb_per_second\": %.1f, "
            + "\"io_concurrency\": %d, \"io_combine_limit\": %d, \"io_gap_limit\": %d, \"direct_io\": %s, \"counted_in_driver\": %s, \"executors\": %d, "
            + "\"parallelism\": %d, \"counted_while_indexing_seconds\": %.3f, \"catalog_seconds\": %.3f, "
            + "\"plan_seconds\": %.3f, \"list_requests\": %d, \"head_requests\": %d, \"get_requests\": %d, "
            + "\"plan_requests\": %d}%n",
        m.reads().blocks(), m.reads().gapBlocks(), m.reads().bytes(), m.reads().reads(), m.ranges(), m.scanSeconds(), jobSeconds,
        m.countingSeconds() > 0 ? mb / m.countingSeconds() : 0.0, m.io().concurrency(), m.io().combineLimit(), m.io().gapLimit(),
        m.io().directIo(), m.inDriver(), m.executors(), m.parallelism(), m.plan().countingSeconds(),
        m.plan().catalogSeconds(), m.plan().planSeconds(), requests.lists(), requests.heads(), requests.gets(),
        m.plan().requests().total());
  }
}
