package io.pgbloat.bench;

import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.io.read.IoSettings;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.spark.Analysis;
import io.pgbloat.spark.AnalyzeOptions;
import io.pgbloat.spark.BloatAnalyzer;
import io.pgbloat.testing.LocalSpark;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A benchmark, not a test: what a sampled query costs in a warm notebook session, and where the
 * time goes. One local Spark session runs the same sampled analysis ROUNDS times, through the
 * data source ({@code spark.read.format("pgbloat")}, collected) and through the analyzer
 * directly, and prints each round's wall time beside the analysis's own figures: the catalog
 * read, the planning, the scan job, and the rest (Spark's jobs around it). Used by
 * {@code bench/notebook-cost.sh}.
 *
 * <p>usage: NotebookCost DATA_DIR DATABASE SCHEMA.TABLE SAMPLE_BLOCKS ROUNDS
 */
public final class NotebookCost {
  private NotebookCost() {}

  public static void main(String[] args) {
    String dataDir = args[0];
    String database = args[1];
    String table = args[2];
    long sampleBlocks = Long.parseLong(args[3]);
    int rounds = Integer.parseInt(args[4]);
    SparkSession spark = LocalSpark.session("pgbloat-notebook-cost", 2);
    try {
      for (int round = 1; round <= rounds; round++) {
        // each round and each way its own seed: its own blocks, not read before (cold)
        long started = System.nanoTime();
        Dataset<Row> frame = spark.read().format("pgbloat").option("database", database).option("table", table)
            .option("sampleBlocks", Long.toString(sampleBlocks)).option("seed", Long.toString(2L * round))
            .load(dataDir);
        double loadSeconds = (System.nanoTime() - started) / 1e9;
        long rows = frame.collectAsList().size();
        double sourceSeconds = (System.nanoTime() - started) / 1e9;
        StringBuilder phases = new StringBuilder();
        frame.queryExecution().tracker().phases().foreach(p -> phases.append(String.format(" %s %.3f", p._1(),
            p._2().durationMs() / 1e3)));
        AnalyzeOptions options = new AnalyzeOptions(dataDir, new RelationFilter(List.of(database), List.of(table)),
            SampleSize.blocks(sampleBlocks), 2L * round + 1,
            new IoSettings(IoSettings.DEFAULT_CONCURRENCY, IoSettings.DEFAULT_COMBINE_LIMIT, true));
        started = System.nanoTime();
        Analysis analysis = new BloatAnalyzer(spark).analyze(options);
        double seconds = (System.nanoTime() - started) / 1e9;
        var plan = analysis.metrics().plan();
        double scan = analysis.metrics().scanSeconds();
        System.out.printf("round %d: data source load %.3f s, phases%s%n", round, loadSeconds, phases);
        System.out.printf("round %d: data source %.3f s (%d rows); analyzer %.3f s = catalog %.3f + plan %.3f + scan job "
            + "%.3f + rest %.3f (%d blocks)%n", round, sourceSeconds, rows, seconds, plan.catalogSeconds(),
            plan.planSeconds(), scan, seconds - plan.catalogSeconds() - plan.planSeconds() - scan,
            analysis.metrics().reads().blocks());
      }
    } finally {
      spark.stop();
    }
  }
}
