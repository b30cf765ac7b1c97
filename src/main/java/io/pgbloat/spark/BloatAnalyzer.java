package io.pgbloat.spark;

import io.pgbloat.catalog.Relation;
import io.pgbloat.catalog.RelationId;
import io.pgbloat.figures.IndexPageEstimates;
import io.pgbloat.figures.RelationFigures;
import io.pgbloat.io.read.ReadTotals;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexMetapage;
import io.pgbloat.rebuild.IndexBuild;
import io.pgbloat.rows.IndexReport;
import io.pgbloat.rows.RelationReport;
import io.pgbloat.rows.TableTotal;
import io.pgbloat.sample.RelationSample;
import io.pgbloat.sample.SamplePlanner;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.sample.ScanRange;
import io.pgbloat.scan.IndexRangeResult;
import io.pgbloat.scan.IndexRangeScanner;
import io.pgbloat.scan.PageFinding;
import io.pgbloat.scan.RangeResult;
import io.pgbloat.scan.RangeScanner;
import io.pgbloat.stats.DeadFractionHistogram;
import io.pgbloat.stats.Estimate;
import io.pgbloat.stats.IndexMeasure;
import io.pgbloat.stats.IndexPageSums;
import io.pgbloat.stats.Measure;
import io.pgbloat.stats.SampleSizeCalculator;
import io.pgbloat.stats.StratifiedEstimator;
import io.pgbloat.stats.StratifiedSums;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag$;
import scala.reflect.ClassTag;

/**
 * Runs a plan as Spark jobs: the plan's blocks cut into ranges, the executors read and count
 * pages, the driver merges the exact partial sums per relation and stratum and estimates.
 * A target-RSE run reads a pilot sample first, then, in a second job, as many more blocks as
 * each relation's pilot variance says it needs.
 */
public final class BloatAnalyzer {
  /** The measures a target relative standard error is met on. */
  private static final List<Measure> TARGET_MEASURES = List.of(Measure.DEAD_TUPLE_LEN, Measure.FREE_SPACE);
  /**
   * The largest range counted in the driver: 256 MB, a few tenths of a second of reading, which
   * no one needs to cancel from Spark's UI.
   */
  static final long IN_DRIVER_MAX_BLOCKS = 32768;
  /** Spark's local master with a number of task attempts: local[N,F], local[*,F]. */
  private static final Pattern LOCAL_WITH_RETRIES = Pattern.compile("local\\[\\s*(\\d+|\\*)\\s*,\\s*\\d+\\s*\\]");
  /** Confidence of the reported intervals. */
  public static final double CONFIDENCE = 0.95;

  /** The session the jobs run on, asked for only when a job is to run. */
  private final Supplier<SparkSession> spark;
  private final ScanProgress progress;

  public BloatAnalyzer(SparkSession spark) {
    this(spark, ScanProgress.NONE);
  }

  /** An analyzer that tells {@code progress} how far each scan has got. */
  public BloatAnalyzer(SparkSession spark, ScanProgress progress) {
    this(() -> spark, progress);
  }

  private BloatAnalyzer(Supplier<SparkSession> spark, ScanProgress progress) {
    this.spark = spark;
    this.progress = progress;
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
    return analyzeStandalone(options, sessionFactory, ScanProgress.NONE, (analysis, spark) -> analysis);
  }

  /**
   * As {@link #analyzeStandalone(AnalyzeOptions, Supplier)}, telling {@code progress} how the
   * scan goes, and handing the analysis to {@code then} while the session can still be had (to
   * write it with Spark, as Parquet). A compressed backup whose pages were counted as it was
   * indexed starts Spark only if a task or {@code then} needs it.
   */
  public static <T> T analyzeStandalone(AnalyzeOptions options, Supplier<SparkSession> sessionFactory,
      ScanProgress progress, BiFunction<Analysis, Supplier<SparkSession>, T> then) {
    try (AnalysisPlanner planner = AnalysisPlanner.open(options)) {
      SessionStart session = planner.countedWhileOpening() ? SessionStart.onDemand(sessionFactory)
          : SessionStart.inBackground(sessionFactory);
      T result;
      try {
        result = then.apply(new BloatAnalyzer(session::get, progress).run(planner.plan()), session::get);
      } catch (RuntimeException e) {
        try {
          session.stop();
        } catch (RuntimeException sparkFailed) { // the run's error is the one to report
          e.addSuppressed(sparkFailed);
        }
        throw e;
      }
      session.stop();
      return result;
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
    Map<Integer, long[]> bins = first.deadFractionBins();
    List<RelationSample> samples = plan.samples();
    RunMetrics metrics = first.metrics().planned(plan.cost());
    if (plan.sampleSize().mode() == SampleSize.Mode.TARGET_RSE) {
      List<RelationSample> more = extend(plan, sums, estimator);
      Scan second = scan(plan, more, findings);
      second.sums().forEach((relation, s) -> sums.merge(relation, s, StratifiedSums::merge));
      second.deadFractionBins().forEach((relation, b) -> bins.merge(relation, b, BloatAnalyzer::add));
      samples = more; // carries each relation's strata totals after both phases
      metrics = metrics.plus(second.metrics());
    }
    List<String> warnings = new ArrayList<>(plan.warnings());
    List<RelationReport> counted = counted(plan, samples, sums, estimator, warnings);
    long badPages = counted.stream().mapToLong(row -> row.figures().badPages()).sum();
    List<RelationReport> rows = reported(counted, plan.unreported(), plan.rollups(), RelationReport::rollup,
        RelationReport::relation);
    List<DeadFractionHistogram> histograms = new ArrayList<>();
    bins.forEach((relation, counts) -> histograms.add(new DeadFractionHistogram(plan.relations().get(relation), counts)));
    List<IndexReport> indexRows = List.of();
    if (!plan.indexes().relations().isEmpty()) {
      Map<RelationId, IndexBuild.TableCounts> tables = new HashMap<>(); // what each table counted gives its indexes' rebuild
      for (int i = 0; i < counted.size(); i++) {
        long[] population = samples.get(i).population();
        StratifiedSums tableSums = sums.getOrDefault(i, new StratifiedSums());
        tables.put(counted.get(i).relation().id(), new IndexBuild.TableCounts(counted.get(i).figures().tupleCount(),
            estimator.total(Measure.INDEXED_POINTERS, population, tableSums),
            estimator.total(Measure.DEAD_ROOTS, population, tableSums),
            estimator.total(Measure.DELETED_ROOTS, population, tableSums), plan.files().get(i).blocks()));
      }
      IndexScan indexScan = scanIndexes(plan, tables, findings, warnings);
      indexRows = indexScan.rows();
      metrics = metrics.plus(indexScan.metrics());
      badPages += indexRows.stream().mapToLong(IndexReport::badPages).sum();
    }
    List<TableTotal> totals = plan.options().totals() != AnalyzeOptions.Totals.NONE
        ? TableTotals.of(counted, plan.unreported(), plan.rollups(), indexRows) : List.of();
    List<IndexReport> indexes = plan.options().indexes() ? reported(indexRows, plan.indexes().unreported(),
        plan.indexes().rollups(), IndexReport::rollup, IndexReport::relation) : List.of();
    return new Analysis(rows, findings, badPages, warnings, metrics, histograms, indexes, totals);
  }

  /**
   * Per relation of {@code plan} (in its order), its row estimated from its {@code sums} over
   * its {@code samples}; what the sums say of all-zero pages and of tuples whose transactions
   * have no outcome goes to {@code warnings}.
   */
  private static List<RelationReport> counted(AnalysisPlan plan, List<RelationSample> samples,
      Map<Integer, StratifiedSums> sums, StratifiedEstimator estimator, List<String> warnings) {
    List<RelationReport> counted = new ArrayList<>();
    Long seed = plan.sampleSize().mode() == SampleSize.Mode.FULL_SCAN ? null : plan.options().seed();
    for (int i = 0; i < plan.relations().size(); i++) {
      Relation r = plan.relations().get(i);
      StratifiedSums relationSums = sums.getOrDefault(i, new StratifiedSums());
      RelationFigures figures = RelationFigures.of(samples.get(i), relationSums, estimator, r.fillfactor(),
          r.isToast(), plan.files().get(i).partialBlocks());
      counted.add(new RelationReport(r, figures, seed, plan.options().thresholds()));
      long newPages = relationSums.total().newPages();
      if (newPages > 0) {
        // PageIsVerified accepts an all-zero page (a crash mid-extension leaves them), so it
        // is no bad page; but one inside a table may be a page zeroed by damage: say so
        warnings.add(r.qualifiedName() + " (" + r.relpath() + "): " + newPages + " all-zero page(s) among the "
            + figures.scannedBlocks() + " read, counted as empty as PostgreSQL counts them; inside a table they "
            + "can be damage (a crash while extending it also leaves them)");
      }
      long withoutOutcome = relationSums.total().withoutOutcome();
      if (withoutOutcome > 0) {
        warnings.add(r.qualifiedName() + " (" + r.relpath() + "): " + withoutOutcome + " tuple(s) among the "
            + figures.scannedBlocks() + " page(s) read belong to transactions the copy holds no outcome for "
            + "(past the end of its pg_xact or pg_multixact): counted as still running when the copy was taken, "
            + "as pgstattuple counts a running transaction's tuples");
      }
    }
    return counted;
  }

  /**
   * The rows to report, in report order: every row counted but those read only as parts of a
   * rollup, a total or a rebuild ({@code unreported}), and a row per partitioned table or index
   * summing its leaves' rows.
   */
  private static <T> List<T> reported(List<T> counted, Set<Integer> unreported, List<PartitionRollup> rollups,
      BiFunction<Relation, List<T>, T> rollup, java.util.function.Function<T, Relation> relation) {
    List<T> rows = new ArrayList<>();
    for (int i = 0; i < counted.size(); i++) {
      if (!unreported.contains(i)) {
        rows.add(counted.get(i));
      }
    }
    for (PartitionRollup r : rollups) {
      rows.add(rollup.apply(r.relation(), r.members().stream().map(counted::get).toList()));
    }
    rows.sort(Comparator.comparing(relation, RelationSelector.REPORT_ORDER));
    return rows;
  }

  private record IndexScan(List<IndexReport> rows, RunMetrics metrics) {}

  /**
   * One job over every index's sampled blocks; the driver merges the sums and estimates, a
   * btree's and a hash index's rebuild from its table where {@code tables} has it counted.
   */
  private IndexScan scanIndexes(AnalysisPlan plan, Map<RelationId, IndexBuild.TableCounts> tables, List<String> findings,
      List<String> warnings) {
    IndexPlan indexes = plan.indexes();
    List<ScanRange> ranges = plan.indexRanges(this::sizing);
    long started = System.nanoTime();
    List<IndexRangeResult> results = new ArrayList<>(runRanges(plan, ranges,
        new RangeTask<>(plan.store(), plan.options().io(),
            new IndexRangeScanner.Factory(plan.pageRules(), plan.options().io(), new ArrayList<>(indexes.accessMethods()),
                new ArrayList<>(indexes.fillfactors()), 0))));
    results.add(plan.countedIndexes().result());
    double seconds = (System.nanoTime() - started) / 1e9;
    Map<Integer, IndexPageSums> sums = new HashMap<>();
    Map<Integer, IndexMetapage> metapages = new HashMap<>();
    ReadTotals read = ReadTotals.NONE;
    for (IndexRangeResult result : results) {
      result.sums().forEach((index, partial) -> sums.merge(index, partial, IndexPageSums::merge));
      metapages.putAll(result.metapages());
      for (PageFinding f : result.findings()) {
        Relation r = indexes.relations().get(f.relation());
        findings.add(r.qualifiedName() + " (" + r.relpath() + ") block " + f.block() + ": " + f.reason());
      }
      read = read.plus(result.reads());
    }
    StratifiedEstimator estimator = new StratifiedEstimator(CONFIDENCE);
    List<IndexReport> rows = new ArrayList<>();
    for (int i = 0; i < indexes.relations().size(); i++) {
      rows.add(indexRow(plan, i, sums.get(i), metapages.get(i), tables, estimator, warnings));
    }
    return new IndexScan(rows, new RunMetrics(read, ranges.size(), seconds, parallelism(ranges), executors(ranges),
        plan.options().io(), countsInDriver(ranges)));
  }

  /**
   * The row of index {@code i} of the plan from its pages' {@code read} sums (null when none was
   * read) and {@code metapage}.
   */
  private static IndexReport indexRow(AnalysisPlan plan, int i, IndexPageSums read, IndexMetapage metapage,
      Map<RelationId, IndexBuild.TableCounts> tables, StratifiedEstimator estimator, List<String> warnings) {
    IndexPlan indexes = plan.indexes();
    Relation r = indexes.relations().get(i);
    long blocks = indexes.files().get(i).blocks();
    IndexAccessMethod method = IndexAccessMethod.named(r.am());
    if (method == null) {
      return new IndexReport(r, blocks, null, null); // an access method this tool does not read
    }
    IndexPageSums sums = read != null ? read : new IndexPageSums(method);
    long undecoded = sums.read(IndexMeasure.UNDECODED_LEAVES);
    if (undecoded > 0) {
      warnings.add(r.qualifiedName() + " (" + r.relpath() + "): " + undecoded + " leaf page(s) among those read hold "
          + "line pointers out of their bounds or overlapping (pgstatindex does not read them): what a REINDEX "
          + "would give back counts their bytes as they are; check the index with amcheck's bt_index_check");
    }
    IndexBuild.TableCounts table = tables.get(r.ownerId());
    IndexBuild build = new IndexBuild(r.fillfactor(), r.deduplicateItems(), table,
        table == null || r.tableStatistics() == null ? Double.NaN : r.tableStatistics().estimatedTuples(table.blocks()),
        indexes.pendingLists().get(i).keys());
    Long seed = indexes.samples().get(i).size() >= blocks ? null : plan.options().seed();
    return new IndexReport(r, blocks, IndexPageEstimates.of(method, blocks, sums,
        indexes.wholeBlocks().get(i), metapage, build, estimator), seed,
        plan.options().thresholds());
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

  /**
   * One job: a task per range, on the hosts holding its blocks, telling {@link #progress} as
   * ranges finish (its listener counts only this job's stages, tagged by a job group). A job of
   * one small range on a local master that retries no task is counted in the driver's thread
   * instead, as its one task would be there: Spark's job around it costs more than a small
   * sample's reads (docs/speed.md).
   */
  private <R> List<R> runRanges(AnalysisPlan plan, List<ScanRange> ranges,
      FlatMapFunction<Iterator<ScanRange>, R> task) {
    if (ranges.isEmpty()) {
      return List.of();
    }
    long planned = ranges.stream().mapToLong(ScanRange::blocks).sum();
    if (countsInDriver(ranges)) {
      List<R> results = new ArrayList<>();
      try {
        task.call(ranges.iterator()).forEachRemaining(results::add);
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException("reading " + plan.dataDir() + " failed", e);
      }
      progress.update(planned, planned);
      return results;
    }
    SparkContext sc = spark.get().sparkContext();
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
    String group = "pgbloat-" + UUID.randomUUID();
    RangeCompletions completions = new RangeCompletions(group, ranges, progress);
    sc.addSparkListener(completions);
    try {
      jsc.setJobGroup(group, "pgbloat: reading " + planned + " blocks", false);
      return withPreferredHosts(jsc, ranges, plan.preferredHosts(ranges, sc.isLocal())).mapPartitions(task).collect();
    } finally {
      jsc.clearJobGroup();
      sc.removeSparkListener(completions);
      progress.update(planned, planned); // the listener bus is asynchronous: its last events may come later
    }
  }

  /**
   * Whether {@code ranges} is one range of at most {@link #IN_DRIVER_MAX_BLOCKS} on a local
   * master that tries a task once ({@code local[N]}; {@code local[N,F]} retries, so its tasks
   * stay tasks).
   */
  private boolean countsInDriver(List<ScanRange> ranges) {
    if (ranges.isEmpty()) {
      return true; // nothing left for a task: counted as a backup was indexed, or nothing to count
    }
    SparkContext sc = spark.get().sparkContext();
    return ranges.size() == 1 && ranges.get(0).blocks() <= IN_DRIVER_MAX_BLOCKS && sc.isLocal()
        && !LOCAL_WITH_RETRIES.matcher(sc.master()).matches();
  }

  private static long[] add(long[] a, long[] b) {
    long[] sum = a.clone();
    for (int i = 0; i < sum.length; i++) {
      sum[i] += b[i];
    }
    return sum;
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

  /** How this session's jobs are cut into ranges: asked only when there is a job to run. */
  private RangeSizing sizing() {
    return RangeSizing.of(spark.get().sparkContext());
  }

  /** The cores {@code ranges}' job ran on: Spark's default parallelism, 1 (the driver's) without a job. */
  private int parallelism(List<ScanRange> ranges) {
    return ranges.isEmpty() ? 1 : spark.get().sparkContext().defaultParallelism();
  }

  /** Executors running {@code ranges}' tasks: the block managers but the driver's, or 1 in local mode or without a job. */
  private int executors(List<ScanRange> ranges) {
    if (ranges.isEmpty()) {
      return 1;
    }
    SparkContext sc = spark.get().sparkContext();
    return Math.max(1, sc.getExecutorMemoryStatus().size() - (sc.isLocal() ? 0 : 1));
  }

  private record Scan(Map<Integer, StratifiedSums> sums, Map<Integer, long[]> deadFractionBins, RunMetrics metrics) {}

  private Scan scan(AnalysisPlan plan, List<RelationSample> samples, List<String> findings) {
    List<ScanRange> ranges = plan.ranges(samples, this::sizing);
    long started = System.nanoTime();
    List<RangeResult> results = new ArrayList<>(runRanges(plan, ranges,
        new RangeTask<>(plan.store(), plan.options().io(),
            new RangeScanner.Factory(plan.transactions(), plan.pageRules(), plan.options().io(), 0))));
    results.add(plan.countedTables().result());
    double seconds = (System.nanoTime() - started) / 1e9;

    Map<Integer, StratifiedSums> sums = new HashMap<>();
    Map<Integer, long[]> bins = new HashMap<>();
    ReadTotals read = ReadTotals.NONE;
    for (RangeResult result : results) {
      result.sums().forEach((relation, partial) -> sums.merge(relation, partial, StratifiedSums::merge));
      result.deadFractionBins().forEach((relation, partial) -> bins.merge(relation, partial, BloatAnalyzer::add));
      for (PageFinding f : result.findings()) {
        Relation r = plan.relations().get(f.relation());
        findings.add(r.qualifiedName() + " (" + r.relpath() + ") block " + f.block() + ": " + f.reason());
      }
      read = read.plus(result.reads());
    }
    return new Scan(sums, bins, new RunMetrics(read, ranges.size(), seconds, parallelism(ranges), executors(ranges),
        plan.options().io(), countsInDriver(ranges)));
  }
}
