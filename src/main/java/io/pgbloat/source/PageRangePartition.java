package io.pgbloat.source;

import io.pgbloat.sample.ScanRange;
import org.apache.spark.sql.connector.read.InputPartition;

/** One range of the sample, and the hosts that hold most of its bytes. */
record PageRangePartition(ScanRange range, String[] hosts) implements InputPartition {
  @Override
  public String[] preferredLocations() {
    return hosts;
  }
}
