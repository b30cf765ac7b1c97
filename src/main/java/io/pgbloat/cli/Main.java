package io.pgbloat.cli;

import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.error.NotADataDirectoryException;
import io.pgbloat.error.PgBloatException;
import io.pgbloat.io.store.StoreSettings;
import io.pgbloat.report.AlertCondition;
import io.pgbloat.spark.Analysis;
import io.pgbloat.spark.AnalyzeOptions;
import io.pgbloat.spark.BloatAnalyzer;
import io.pgbloat.spark.NoMatchException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * The command line: parses, wires the analyzer to a Spark session and a report writer, and
 * turns every failure into one line and an exit status. Computes nothing itself.
 */
public final class Main {
  static final int EXIT_OK = 0;
  static final int EXIT_DATA = 1;
  static final int EXIT_USAGE = 2;
  /** A --fail-on condition holds for at least one relation (each is named on standard error). */
  static final int EXIT_ALERT = 3;
  private static final String PROG = "pgbloat";

  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command line {@code args}; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    boolean debug = java.util.Arrays.asList(args).contains("--debug");
    try {
      CommandLine cmd = CommandLine.parse(args, () -> ConfigFiles.toolDefaults(ConfigFiles.directory()));
      if (cmd.help()) {
        out.print(CommandLine.USAGE);
        return EXIT_OK;
      }
      return analyze(cmd, out, err);
    } catch (RuntimeException e) {
      PgBloatException known = findKnown(e);
      err.println(PROG + ": " + (known != null ? known.getMessage()
          : "unexpected failure: " + e + (debug ? "" : " (rerun with --debug for details)")));
      boolean usage = known instanceof UsageException || known instanceof NoMatchException
          || known instanceof NotADataDirectoryException;
      if (usage) {
        err.println("Try 'submit.sh --help' for the options.");
      }
      if (debug) {
        e.printStackTrace(err);
      }
      return usage ? EXIT_USAGE : EXIT_DATA;
    }
  }

  private static int analyze(CommandLine cmd, PrintStream out, PrintStream err) {
    long started = System.nanoTime();
    Instant runAt = Instant.now();
    try (ReportOutputs outputs = ReportOutputs.open(cmd, out)) { // before the job: a bad path fails at once
      Map<String, String> sparkProperties = sparkProperties(cmd);
      AnalyzeOptions options = new AnalyzeOptions(cmd.dataDir(),
          new RelationFilter(cmd.databases(), cmd.tables(), cmd.kinds(), cmd.minBytes()), cmd.sampleSize(),
          cmd.seed(), cmd.io(), cmd.indexes(), cmd.totals(), cmd.thresholds())
          .withStore(StoreSettings.fromSpark(sparkProperties));
      ProgressLine progress = ProgressLine.forTerminal(err, cmd.quiet());
      Analysis analysis;
      try {
        analysis = BloatAnalyzer.analyzeStandalone(options, () -> session(cmd, sparkProperties), progress,
            (a, spark) -> {
              progress.finish();
              outputs.writeWithSpark(a, spark, runAt);
              return a;
            });
      } finally {
        progress.finish(); // an error line must not land on the progress line
      }
      for (String warning : analysis.warnings()) {
        err.println(PROG + ": warning: " + warning);
      }
      outputs.write(analysis, runAt, (System.nanoTime() - started) / 1e9);
      if (analysis.hasFindings()) {
        for (String finding : analysis.findings()) {
          err.println(PROG + ": bad data: " + finding);
        }
        err.println(PROG + ": the report is complete but for the " + analysis.findings().size() + " problem(s) "
            + "above (" + analysis.badPages() + " bad page(s), counted in bad_pages and left out of the figures); "
            + "check those files, e.g. with pg_checksums or pg_amcheck on a copy");
      }
      List<String> alerts = AlertCondition.alerts(analysis.rows(), cmd.failOn());
      alerts.forEach(alert -> err.println(PROG + ": alert: " + alert));
      if (!alerts.isEmpty()) {
        err.println(PROG + ": " + alerts.size() + " alert(s): a --fail-on condition holds (exit status " + EXIT_ALERT
            + ")");
        return EXIT_ALERT;
      }
      return analysis.hasFindings() ? EXIT_DATA : EXIT_OK;
    }
  }

  /**
   * The run's Spark properties, each from the first that sets it: --conf, spark-submit's (which
   * come as system properties), spark-defaults.conf of the configuration directory. The planner
   * reads the data directory before Spark starts, so it takes its spark.hadoop.* settings here.
   */
  private static Map<String, String> sparkProperties(CommandLine cmd) {
    Map<String, String> properties = new LinkedHashMap<>(ConfigFiles.sparkDefaults(ConfigFiles.directory()));
    System.getProperties().stringPropertyNames().stream().filter(key -> key.startsWith("spark."))
        .forEach(key -> properties.put(key, System.getProperty(key)));
    properties.putAll(cmd.sparkConf());
    return properties;
  }

  /** A Spark session with {@code properties}: --master if given, else what spark-submit set, else local[*]. */
  private static SparkSession session(CommandLine cmd, Map<String, String> properties) {
    SparkSession.Builder builder = SparkSession.builder().appName("pgbloat-spark")
        .config("spark.ui.showConsoleProgress", "false");
    properties.forEach(builder::config);
    if (cmd.master() != null) {
      builder.master(cmd.master());
    } else if (System.getProperty("spark.master") == null) {
      builder.master("local[*]").config("spark.ui.enabled", "false");
    }
    return builder.getOrCreate();
  }

  /** The tool's own failure inside whatever Spark wrapped it in. */
  private static PgBloatException findKnown(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof PgBloatException known) {
        return known;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }
}
