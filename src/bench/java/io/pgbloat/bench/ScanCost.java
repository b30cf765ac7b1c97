package io.pgbloat.bench;

import io.pgbloat.catalog.RelKind;
import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.io.read.IoSettings;
import io.pgbloat.io.store.DirectFileStore;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.io.store.HadoopFileStore;
import io.pgbloat.io.store.StoreSettings;
import io.pgbloat.sample.RangePlanner;
import io.pgbloat.sample.RelationSlice;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.sample.ScanRange;
import io.pgbloat.scan.RangeResult;
import io.pgbloat.scan.RangeScanner;
import io.pgbloat.spark.AnalysisPlan;
import io.pgbloat.spark.AnalysisPlanner;
import io.pgbloat.spark.AnalyzeOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * A benchmark, not a test: one task's scan of a sampled relation without Spark, repeated,
 * timed in the thread that runs it, so the cost per block of reading and counting shows
 * without the job around it. Used by {@code bench/scan-cost.sh}.
 *
 * <p>usage: ScanCost DATA_DIR DATABASE TABLE SAMPLE_BLOCKS K B DIRECT(true|false) ROUNDS [IN_FLIGHT_BLOCKS [GAP_LIMIT]]
 */
public final class ScanCost {
  private ScanCost() {}

  public static void main(String[] args) throws Exception {
    String dataDir = args[0];
    long sampleBlocks = Long.parseLong(args[3]);
    IoSettings io = new IoSettings(Integer.parseInt(args[4]), Integer.parseInt(args[5]), Boolean.parseBoolean(args[6]))
        .withInFlightBlocks(args.length > 8 ? Integer.parseInt(args[8]) : IoSettings.DEFAULT_IN_FLIGHT_BLOCKS)
        .withGapLimit(args.length > 9 ? Integer.parseInt(args[9]) : IoSettings.DEFAULT_GAP_LIMIT);
    int rounds = Integer.parseInt(args[7]);
    FileStore opened = HadoopFileStore.open(dataDir, StoreSettings.DEFAULT.configuration());
    try (FileStore files = io.directIo() ? DirectFileStore.open(opened) : opened) {
      for (int round = 1; round <= rounds; round++) {
        // each round its own seed, so its own blocks: none read before, in any cache
        AnalysisPlan plan = AnalysisPlanner.plan(new AnalyzeOptions(dataDir,
            new RelationFilter(List.of(args[1]), List.of(args[2])),
            sampleBlocks == 0 ? SampleSize.fullScan() : SampleSize.blocks(sampleBlocks), round, io));
        RangeScanner scanner = new RangeScanner(files, plan.transactions(), plan.pageRules(), io);
        ScanRange range = oneRange(plan);
        long started = System.nanoTime();
        RangeResult result = scanner.count(range);
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("round %d: %d blocks in %d reads, %.3f s, %.1f us/block, %.0f MB/s%n", round,
            result.reads().blocks(), result.reads().reads(), seconds, seconds * 1e6 / result.reads().blocks(),
            result.reads().bytes() / seconds / 1e6);
      }
    }
  }

  /** The plan's sampled blocks as one range: one task's work. */
  private static ScanRange oneRange(AnalysisPlan plan) {
    List<RelationSlice> slices = new ArrayList<>();
    long total = 0;
    for (int i = 0; i < plan.samples().size(); i++) {
      slices.add(RelationSlice.of(i, plan.files().get(i), plan.samples().get(i), plan.relations().get(i).kind() == RelKind.TOAST_TABLE,
          plan.relations().get(i).columns()));
      total += plan.samples().get(i).sampledBlocks();
    }
    return new RangePlanner(total, 1, 1, total, total).cut(slices).get(0);
  }
}
