package io.pgbloat.source;

import io.pgbloat.sample.ScanRange;
import io.pgbloat.spark.AnalysisPlan;
import io.pgbloat.spark.RangeSizing;
import io.pgbloat.spark.AnalysisPlanner;
import io.pgbloat.spark.AnalyzeOptions;
import java.util.List;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;

/**
 * The page view as a batch scan: the driver plans the sample as the report would (same
 * seed, same blocks), cuts it into ranges, and each range is a partition read on an executor.
 */
final class PageScan implements Scan, Batch {
  private final AnalyzeOptions options;
  private AnalysisPlan plan;

  PageScan(AnalyzeOptions options) {
    this.options = options;
  }

  @Override
  public StructType readSchema() {
    return PageRows.SCHEMA;
  }

  @Override
  public String description() {
    return "pgbloat pages of " + options.dataDir() + " (" + options.sampleSize() + ")";
  }

  @Override
  public Batch toBatch() {
    return this;
  }

  private synchronized AnalysisPlan plan() {
    if (plan == null) {
      plan = AnalysisPlanner.planPages(options);
    }
    return plan;
  }

  @Override
  public InputPartition[] planInputPartitions() {
    AnalysisPlan p = plan();
    SparkContext sc = SparkSession.active().sparkContext();
    List<ScanRange> ranges = p.ranges(p.samples(), () -> RangeSizing.of(sc));
    List<List<String>> hosts = p.preferredHosts(ranges, sc.isLocal());
    InputPartition[] partitions = new InputPartition[ranges.size()];
    for (int i = 0; i < partitions.length; i++) {
      partitions[i] = new PageRangePartition(ranges.get(i), hosts.get(i).toArray(String[]::new));
    }
    return partitions;
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    AnalysisPlan p = plan();
    return new PageReaderFactory(p.store(), p.relations(), p.transactions(), p.pageRules(), options.io());
  }
}
