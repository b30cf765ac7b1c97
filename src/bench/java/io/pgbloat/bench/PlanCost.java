package io.pgbloat.bench;

import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.io.read.IoSettings;
import io.pgbloat.io.store.StoreSettings;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.spark.AnalysisPlan;
import io.pgbloat.spark.AnalysisPlanner;
import io.pgbloat.spark.AnalyzeOptions;
import io.pgbloat.spark.RangeSizing;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StorageStatistics;

/**
 * A benchmark, not a test: the driver's plan of a data directory (catalog, every relation's
 * files measured, samples drawn, the ranges' preferred hosts) without Spark, repeated, as the
 * command line makes it before a session is needed. Prints each round's seconds, the median of
 * rounds 2 and later, and what the last round asked of each Hadoop file system (its storage
 * statistics: HDFS's operations by name, S3A's requests). The plan and the locality lookup
 * (which a local master skips) are timed apart. Used by {@code bench/remote-stores.sh}.
 *
 * <p>usage: PlanCost DATA_DIR SAMPLE_BLOCKS ROUNDS [HADOOP_KEY=VALUE...]
 */
public final class PlanCost {
  private PlanCost() {}

  public static void main(String[] args) throws Exception {
    String dataDir = args[0];
    SampleSize size = SampleSize.blocks(Long.parseLong(args[1]));
    int rounds = Integer.parseInt(args[2]);
    Map<String, String> hadoop = new HashMap<>();
    Arrays.stream(args, 3, args.length).map(kv -> kv.split("=", 2)).forEach(kv -> hadoop.put(kv[0], kv[1]));
    AnalyzeOptions options = new AnalyzeOptions(dataDir, RelationFilter.all(), size, 1, IoSettings.defaults())
        .withStore(new StoreSettings(hadoop));
    double[] planSeconds = new double[rounds];
    double[] hostSeconds = new double[rounds];
    Map<String, Long> asked = Map.of();
    int relations = 0;
    for (int round = 0; round < rounds; round++) {
      Map<String, Long> before = statistics();
      long started = System.nanoTime();
      AnalysisPlan plan = AnalysisPlanner.plan(options);
      long planned = System.nanoTime();
      plan.preferredHosts(plan.ranges(plan.samples(), () -> new RangeSizing(2, 1)), false);
      planSeconds[round] = (planned - started) / 1e9;
      hostSeconds[round] = (System.nanoTime() - planned) / 1e9;
      relations = plan.relations().size();
      asked = statistics();
      asked.replaceAll((k, v) -> v - before.getOrDefault(k, 0L));
      asked.values().removeIf(v -> v == 0);
      System.out.printf("round %d: plan %.3f s, hosts %.3f s%n", round + 1, planSeconds[round], hostSeconds[round]);
    }
    System.out.printf("plan %s: %d relations, median plan %.3f s, hosts %.3f s; asked %s%n", dataDir, relations,
        steadyMedian(planSeconds), steadyMedian(hostSeconds), asked);
  }

  /** The median of rounds 2 and later (all of them when there is one). */
  private static double steadyMedian(double[] seconds) {
    double[] steady = Arrays.copyOfRange(seconds, seconds.length > 1 ? 1 : 0, seconds.length);
    Arrays.sort(steady);
    return steady[steady.length / 2];
  }

  /** Every Hadoop file system's counters, by statistics name and counter. */
  private static Map<String, Long> statistics() {
    Map<String, Long> all = new TreeMap<>();
    for (java.util.Iterator<StorageStatistics> it = FileSystem.getGlobalStorageStatistics().iterator(); it.hasNext(); ) {
      StorageStatistics s = it.next();
      s.getLongStatistics().forEachRemaining(c -> all.merge(s.getName() + "." + c.getName(), c.getValue(), Long::sum));
    }
    return all;
  }
}
