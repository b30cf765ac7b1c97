package io.pgbloat.spark;

import io.pgbloat.catalog.Relation;
import io.pgbloat.sample.RangePlanner;
import io.pgbloat.sample.RelationSample;
import io.pgbloat.sample.RelationSlice;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.sample.SamplePlanner;
import io.pgbloat.sample.ScanRange;
import io.pgbloat.scan.PageFinding;
import io.pgbloat.scan.RangeResult;
import io.pgbloat.stats.Measure;
import io.pgbloat.stats.RelationFigures;
import io.pgbloat.stats.RelationReport;
import io.pgbloat.stats.SampleSizeCalculator;
import io.pgbloat.stats.StratifiedEstimator;
import io.pgbloat.stats.StratifiedSums;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * Runs a plan as Spark jobs: the plan's blocks cut into ranges, the executors read and count
 * pages, the driver merges the exact partial sums per relation and stratum and estimates.
 * A target-RSE run reads a pilot sample first, then, in a second job, as many more blocks as
 * each relation's pilot variance says it needs.
 */
public final class BloatAnalyzer {
  /** Ranges per core: enough that one slow range does not hold up the end of the job. */
  private static final int RANGES_PER_CORE = 4;
  /** 1024 blocks (8 MB): below this a task's own overhead outweighs its reading. */
  private static final long MIN_RANGE_BLOCKS = 1024;
  /** 131072 blocks (1 GB): the most a failed task repeats. */
  private static final long MAX_RANGE_BLOCKS = 131072;
  /** The measures a target relative standard error is met on. */
  private static final List<Measure> TARGET_MEASURES = List.of(Measure.DEAD_TUPLE_LEN, Measure.FREE_SPACE);
  /** Confidence of the reported intervals. */
  public static final double CONFIDENCE = 0.95;

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
    StratifiedEstimator estimator = new StratifiedEstimator(CONFIDENCE);
    List<String> findings = new ArrayList<>(plan.findings());
    Scan first = scan(plan, plan.samples(), findings);
    Map<Integer, StratifiedSums> sums = first.sums();
    List<RelationSample> samples = plan.samples();
    RunMetrics metrics = first.metrics();
    if (plan.sampleSize().mode() == SampleSize.Mode.TARGET_RSE) {
      List<RelationSample> more = extend(plan, sums, estimator);
      Scan second = scan(plan, more, findings);
      second.sums().forEach((relation, s) -> sums.merge(relation, s, StratifiedSums::merge));
      samples = more; // carries each relation's strata totals after both phases
      metrics = metrics.plus(second.metrics());
    }
    List<RelationReport> rows = new ArrayList<>();
    long badPages = 0;
    Long seed = plan.sampleSize().mode() == SampleSize.Mode.FULL_SCAN ? null : plan.options().seed();
    for (int i = 0; i < plan.relations().size(); i++) {
      RelationFigures figures = RelationFigures.of(samples.get(i), sums.getOrDefault(i, new StratifiedSums()),
          estimator, plan.relations().get(i).fillfactor(), plan.relations().get(i).kind() == 't');
      badPages += figures.badPages();
      rows.add(new RelationReport(plan.relations().get(i), figures, seed));
    }
    return new Analysis(rows, findings, badPages, plan.warnings(), metrics);
  }

  /** The second phase of a target-RSE run: per relation, the blocks its pilot says it lacks. */
  private static List<RelationSample> extend(AnalysisPlan plan, Map<Integer, StratifiedSums> pilot,
      StratifiedEstimator estimator) {
    double target = plan.sampleSize().value();
    List<RelationSample> more = new ArrayList<>();
    for (int i = 0; i < plan.relations().size(); i++) {
      RelationSample sample = plan.samples().get(i);
      long need = sample.isComplete() ? sample.blocks()
          : SampleSizeCalculator.blocksFor(target, TARGET_MEASURES, sample.population(), sample.planned(),
              pilot.getOrDefault(i, new StratifiedSums()), estimator);
      Relation r = plan.relations().get(i);
      more.add(SamplePlanner.extend(sample, plan.allVisible().get(i), need, plan.options().seedFor(r)));
    }
    return more;
  }

  /** One partition per range, each preferring its hosts (SparkContext.makeRDD with locations). */
  private static JavaRDD<ScanRange> withPreferredHosts(JavaSparkContext jsc, List<ScanRange> ranges,
      List<List<String>> hosts) {
    List<Tuple2<ScanRange, Seq<String>>> located = new ArrayList<>();
    for (int i = 0; i < ranges.size(); i++) {
      located.add(new Tuple2<>(ranges.get(i), CollectionConverters.asScala(hosts.get(i)).toSeq()));
    }
    ClassTag<ScanRange> tag = ClassTag$.MODULE$.apply(ScanRange.class);
    return JavaRDD.fromRDD(jsc.sc().makeRDD(CollectionConverters.asScala(located).toSeq(), tag), tag);
  }

  /** Executors running tasks: the block managers but the driver's, or 1 in local mode. */
  private int executors() {
    return Math.max(1, spark.sparkContext().getExecutorMemoryStatus().size() - (spark.sparkContext().isLocal() ? 0 : 1));
  }

  private record Scan(Map<Integer, StratifiedSums> sums, RunMetrics metrics) {}

  private Scan scan(AnalysisPlan plan, List<RelationSample> samples, List<String> findings) {
    List<RelationSlice> slices = new ArrayList<>();
    long total = 0;
    for (int i = 0; i < samples.size(); i++) {
      slices.add(RelationSlice.of(i, plan.files().get(i), samples.get(i), plan.relations().get(i).kind() == 't'));
      total += samples.get(i).sampledBlocks();
    }
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    List<ScanRange> ranges = new RangePlanner(total, jsc.defaultParallelism(), RANGES_PER_CORE,
        MIN_RANGE_BLOCKS, MAX_RANGE_BLOCKS).cut(slices);
    long started = System.nanoTime();
    List<RangeResult> results = ranges.isEmpty() ? List.of()
        : withPreferredHosts(jsc, ranges, RangeLocality.preferredHosts(plan.dataDir(), ranges))
            .mapPartitions(new ScanTask(plan.dataDir(), plan.transactions(), plan.dataChecksums(), plan.options().io()))
            .collect();
    double seconds = (System.nanoTime() - started) / 1e9;

    Map<Integer, StratifiedSums> sums = new HashMap<>();
    long blocksRead = 0;
    long readCalls = 0;
    for (RangeResult result : results) {
      result.sums().forEach((relation, partial) -> sums.merge(relation, partial, StratifiedSums::merge));
      for (PageFinding f : result.findings()) {
        Relation r = plan.relations().get(f.relation());
        findings.add(r.qualifiedName() + " (" + r.relpath() + ") block " + f.block() + ": " + f.reason());
      }
      blocksRead += result.blocksRead();
      readCalls += result.readCalls();
    }
    return new Scan(sums, new RunMetrics(blocksRead, readCalls, ranges.size(), seconds, jsc.defaultParallelism(),
        executors(), plan.options().io()));
  }
}
