package io.pgbloat.spark;

import io.pgbloat.sample.RangePlanner;
import io.pgbloat.sample.ScanRange;
import io.pgbloat.scan.PageFinding;
import io.pgbloat.scan.RangeResult;
import io.pgbloat.stats.PartialSums;
import io.pgbloat.stats.RelationFigures;
import io.pgbloat.stats.RelationReport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * Runs a plan as one Spark job: the plan's blocks cut into ranges, the executors read and
 * count pages, the driver merges the exact partial sums per relation.
 */
public final class BloatAnalyzer {
  /** Ranges per core: enough that one slow range does not hold up the end of the job. */
  private static final int RANGES_PER_CORE = 4;
  /** 1024 blocks (8 MB): below this a task's own overhead outweighs its reading. */
  private static final long MIN_RANGE_BLOCKS = 1024;
  /** 131072 blocks (1 GB): the most a failed task repeats. */
  private static final long MAX_RANGE_BLOCKS = 131072;

  private final SparkSession spark;

  public BloatAnalyzer(SparkSession spark) {
    this.spark = spark;
  }

  /**
   * Runs one trivial job. Spark's first job in a JVM costs about a second of one-time setup
   * (scheduler classes, serializers); done while the driver reads the catalog, that second
   * is not added to the scan.
   */
  public static void prepare(SparkSession spark) {
    JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(List.of(0), 1).count();
  }

  /**
   * Plans and runs {@code options} on a Spark session of its own, started from
   * {@code sessionFactory} while the driver reads the catalog (Spark takes seconds to start),
   * and stopped at the end. A data directory that cannot be opened fails before Spark starts.
   */
  public static Analysis analyzeStandalone(AnalyzeOptions options, Supplier<SparkSession> sessionFactory) {
    try (AnalysisPlanner planner = AnalysisPlanner.open(options)) {
      CompletableFuture<SparkSession> starting = CompletableFuture.supplyAsync(() -> {
        SparkSession spark = sessionFactory.get();
        prepare(spark);
        return spark;
      });
      AnalysisPlan plan;
      try {
        plan = planner.plan();
      } catch (RuntimeException e) {
        starting.join().stop();
        throw e;
      }
      SparkSession spark = starting.join();
      try {
        return new BloatAnalyzer(spark).run(plan);
      } finally {
        spark.stop();
      }
    }
  }

  /** Plans and runs {@code options} on this analyzer's session, which stays open. */
  public Analysis analyze(AnalyzeOptions options) {
    return run(AnalysisPlanner.plan(options));
  }

  public Analysis run(AnalysisPlan plan) {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    List<ScanRange> ranges = new RangePlanner(plan.totalBlocks(), jsc.defaultParallelism(), RANGES_PER_CORE,
        MIN_RANGE_BLOCKS, MAX_RANGE_BLOCKS).cut(plan.slices());
    long started = System.nanoTime();
    List<RangeResult> results = ranges.isEmpty() ? List.of()
        : jsc.parallelize(ranges, ranges.size())
            .mapPartitions(new ScanTask(plan.dataDir(), plan.transactions(), plan.dataChecksums()))
            .collect();
    double scanSeconds = (System.nanoTime() - started) / 1e9;

    Map<Integer, PartialSums> sums = new HashMap<>();
    List<String> findings = new ArrayList<>(plan.findings());
    long blocksRead = 0;
    long readCalls = 0;
    for (RangeResult result : results) {
      result.sums().forEach((relation, partial) -> sums.merge(relation, partial, PartialSums::merge));
      for (PageFinding f : result.findings()) {
        var r = plan.relations().get(f.relation());
        findings.add(r.qualifiedName() + " (" + r.relpath() + ") block " + f.block() + ": " + f.reason());
      }
      blocksRead += result.blocksRead();
      readCalls += result.readCalls();
    }
    List<RelationReport> rows = new ArrayList<>();
    long badPages = 0;
    for (int i = 0; i < plan.relations().size(); i++) {
      RelationFigures figures = RelationFigures.exact(plan.slices().get(i).file().blocks(),
          sums.getOrDefault(i, new PartialSums()));
      badPages += figures.badPages();
      rows.add(new RelationReport(plan.relations().get(i), figures));
    }
    RunMetrics metrics = new RunMetrics(blocksRead, readCalls, ranges.size(), scanSeconds, jsc.defaultParallelism());
    return new Analysis(rows, findings, badPages, plan.warnings(), metrics);
  }
}
