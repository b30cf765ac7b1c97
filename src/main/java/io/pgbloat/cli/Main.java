package io.pgbloat.cli;

import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.error.NotADataDirectoryException;
import io.pgbloat.error.PgBloatException;
import io.pgbloat.report.HtmlReport;
import io.pgbloat.report.HtmlReportHeader;
import io.pgbloat.report.IndexReportWriter;
import io.pgbloat.report.MetricsReport;
import io.pgbloat.report.ParquetReport;
import io.pgbloat.report.ReportWriter;
import io.pgbloat.spark.AnalyzeOptions;
import io.pgbloat.spark.Analysis;
import io.pgbloat.spark.BloatAnalyzer;
import io.pgbloat.spark.NoMatchException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.apache.spark.sql.SparkSession;

/**
 * The command line: parses, wires the analyzer to a Spark session and a report writer, and
 * turns every failure into one line and an exit status. Computes nothing itself.
 */
public final class Main {
  static final int EXIT_OK = 0;
  static final int EXIT_DATA = 1;
  static final int EXIT_USAGE = 2;
  private static final String PROG = "pgbloat";

  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command line {@code args}; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    boolean debug = java.util.Arrays.asList(args).contains("--debug");
    try {
      CommandLine cmd = CommandLine.parse(ConfigFiles.withToolDefaults(args, ConfigFiles.directory()));
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
    boolean parquet = cmd.format().equals("parquet");
    ReportWriter writer = parquet ? null : ReportWriter.forFormat(cmd.format());
    PrintWriter target = parquet ? null : openOutput(cmd.output(), "--output", out);
    if (parquet) {
      requireAbsent(cmd.output());
    }
    PrintWriter indexTarget = cmd.indexOutput() == null ? null : openOutput(cmd.indexOutput(), "--index-output", out);
    PrintWriter metrics = cmd.metricsOut() == null ? null : openOutput(cmd.metricsOut(), "--metrics-out", out);
    long started = System.nanoTime();
    Instant runAt = Instant.now();
    AnalyzeOptions options = new AnalyzeOptions(cmd.dataDir(),
        new RelationFilter(cmd.databases(), cmd.tables(), cmd.kinds(), cmd.minBytes()), cmd.sampleSize(), cmd.seed(),
        cmd.io(), cmd.indexes());
    ProgressLine progress = ProgressLine.forTerminal(err, cmd.quiet());
    Analysis analysis = BloatAnalyzer.analyzeStandalone(options, () -> session(cmd), progress, (a, spark) -> {
      progress.finish();
      if (parquet) {
        writeWithSpark("--output", cmd.output(), () -> ParquetReport.write(spark, a.rows(), cmd.output()));
      }
      if (cmd.appendTo() != null) {
        writeWithSpark("--append-to", cmd.appendTo(), () -> ParquetReport.append(spark, a.rows(), runAt, cmd.appendTo()));
      }
      return a;
    });
    for (String warning : analysis.warnings()) {
      err.println(PROG + ": warning: " + warning);
    }
    if (cmd.format().equals("html")) { // the page shows the run's header and per-page histograms too
      writer = new HtmlReport(HtmlReportHeader.of(cmd.dataDir(), runAt, analysis), analysis.histograms());
    }
    if (writer != null) {
      writer.write(analysis.rows(), target);
      if (cmd.indexes() && indexTarget == null) { // --format table: the indexes follow the tables
        target.println();
        new IndexReportWriter("table").write(analysis.indexes(), target);
      }
      target.flush();
      if (cmd.output() != null) {
        target.close();
      }
    }
    if (indexTarget != null) {
      new IndexReportWriter(cmd.format().equals("json") || cmd.format().equals("table") ? cmd.format() : "csv")
          .write(analysis.indexes(), indexTarget);
      indexTarget.close();
    }
    if (metrics != null) {
      MetricsReport.write(analysis.metrics(), (System.nanoTime() - started) / 1e9, metrics);
      metrics.close();
    }
    if (!analysis.hasFindings()) {
      return EXIT_OK;
    }
    for (String finding : analysis.findings()) {
      err.println(PROG + ": bad data: " + finding);
    }
    err.println(PROG + ": the report is complete but for the " + analysis.findings().size() + " problem(s) above ("
        + analysis.badPages() + " bad page(s), counted in bad_pages and left out of the figures); "
        + "check those files, e.g. with pg_checksums or pg_amcheck on a copy");
    return EXIT_DATA;
  }

  /** Opens an output before the job runs, so an unwritable path fails before any work. */
  private static PrintWriter openOutput(String path, String option, PrintStream out) {
    if (path == null) {
      return new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
    }
    try {
      return new PrintWriter(new OutputStreamWriter(new FileOutputStream(path), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UsageException("cannot write " + option + " " + path + ": " + e.getMessage());
    }
  }

  /** A Parquet output directory must be new: checked before the job, where it can be (local paths). */
  private static void requireAbsent(String dir) {
    if (!dir.matches("[A-Za-z][A-Za-z0-9+.-]+:.*") && Files.exists(Path.of(dir))) {
      throw new UsageException("cannot write --output " + dir + ": it exists; give a new directory, or use "
          + "--append-to to add runs to one dataset");
    }
  }

  /** Runs a Spark write; its failure becomes one line naming the option and the path. */
  private static void writeWithSpark(String option, String path, Runnable write) {
    try {
      write.run();
    } catch (RuntimeException e) {
      String message = String.valueOf(e.getMessage()).lines().findFirst().orElse(e.toString());
      throw new UsageException("cannot write " + option + " " + path + ": " + message);
    }
  }

  /** A Spark session: --master if given, else what spark-submit set, else local[*]. */
  private static SparkSession session(CommandLine cmd) {
    SparkSession.Builder builder = SparkSession.builder().appName("pgbloat-spark")
        .config("spark.ui.showConsoleProgress", "false");
    ConfigFiles.sparkDefaults(ConfigFiles.directory()).forEach((key, value) -> {
      if (System.getProperty(key) == null) { // spark-submit's own settings come as properties
        builder.config(key, value);
      }
    });
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
