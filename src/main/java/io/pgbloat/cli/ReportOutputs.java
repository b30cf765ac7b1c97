package io.pgbloat.cli;

import io.pgbloat.frame.ParquetReport;
import io.pgbloat.io.store.StorePaths;
import io.pgbloat.report.HtmlReport;
import io.pgbloat.report.HtmlReportHeader;
import io.pgbloat.report.MetricsReport;
import io.pgbloat.report.PrometheusReport;
import io.pgbloat.report.ReportWriter;
import io.pgbloat.rows.RelationReport;
import io.pgbloat.spark.Analysis;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;

/**
 * Where one run's reports go, opened before the job so that an unwritable path fails before
 * any work: the report (a stream, or a Parquet directory), the index report, the totals, the run's
 * metrics, and a Parquet dataset the run is appended to.
 */
final class ReportOutputs implements AutoCloseable {
  private final CommandLine cmd;
  private final PrintWriter report; // null for parquet
  private final PrintWriter indexes; // null: none, or after the table report
  private final PrintWriter totals; // null: none, or after the other reports
  private final PrintWriter metrics; // null: not asked

  private ReportOutputs(CommandLine cmd, PrintWriter report, PrintWriter indexes, PrintWriter totals,
      PrintWriter metrics) {
    this.cmd = cmd;
    this.report = report;
    this.indexes = indexes;
    this.totals = totals;
    this.metrics = metrics;
  }

  static ReportOutputs open(CommandLine cmd, PrintStream out) {
    if (cmd.metricsTextfile() != null) {
      writableDirectoryOf(cmd.metricsTextfile());
    }
    boolean parquet = cmd.format().equals("parquet");
    if (parquet) {
      requireAbsent(cmd.output(), "--output");
      if (cmd.indexOutput() != null) {
        requireAbsent(cmd.indexOutput(), "--index-output");
      }
      if (cmd.totalsOutput() != null) {
        requireAbsent(cmd.totalsOutput(), "--totals-output");
      }
    }
    PrintWriter report = null;
    PrintWriter indexes = null;
    PrintWriter totals = null;
    try {
      report = parquet ? null : open(cmd.output(), "--output", out);
      indexes = cmd.indexOutput() == null || parquet ? null : open(cmd.indexOutput(), "--index-output", out);
      totals = cmd.totalsOutput() == null || parquet ? null : open(cmd.totalsOutput(), "--totals-output", out);
      PrintWriter metrics = cmd.metricsOut() == null ? null : open(cmd.metricsOut(), "--metrics-out", out);
      return new ReportOutputs(cmd, report, indexes, totals, metrics);
    } catch (RuntimeException e) { // one path cannot be written: close the ones already opened
      new ReportOutputs(cmd, report, indexes, totals, null).close();
      throw e;
    }
  }

  /** What needs the Spark session: Parquet output and --append-to. */
  void writeWithSpark(Analysis analysis, Supplier<SparkSession> spark, Instant runAt) {
    if (report == null) {
      sparkWrite("--output", cmd.output(), () -> ParquetReport.write(spark.get(), analysis.rows(), cmd.output()));
      if (cmd.indexOutput() != null) {
        sparkWrite("--index-output", cmd.indexOutput(),
            () -> ParquetReport.writeIndexes(spark.get(), analysis.indexes(), cmd.indexOutput()));
      }
      if (cmd.totalsOutput() != null) {
        sparkWrite("--totals-output", cmd.totalsOutput(),
            () -> ParquetReport.writeTotals(spark.get(), analysis.totals(), cmd.totalsOutput()));
      }
    }
    if (cmd.appendTo() != null) {
      sparkWrite("--append-to", cmd.appendTo(),
          () -> ParquetReport.append(spark.get(), analysis.rows(), runAt, cmd.appendTo()));
    }
  }

  /** The rest, once the session is gone. */
  void write(Analysis analysis, Instant runAt, double seconds) {
    if (report != null) {
      ReportWriter<RelationReport> writer = switch (cmd.format()) {
        case "html" -> new HtmlReport(HtmlReportHeader.of(cmd.dataDir(), runAt, analysis), analysis.histograms(),
            Math.max(1, analysis.rows().size())).withIndexes(analysis.indexes()).withTotals(analysis.totals());
        case "prometheus" -> new PrometheusReport(runAt, seconds);
        default -> ReportWriter.forFormat(cmd.format());
      };
      writer.write(analysis.rows(), report);
      if (cmd.indexes() && indexes == null && cmd.format().equals("table")) { // the indexes follow the tables
        report.println();
        ReportWriter.forIndexes("table").write(analysis.indexes(), report);
      }
      if (cmd.totals() && totals == null && cmd.format().equals("table")) { // then the totals
        report.println();
        ReportWriter.forTotals("table").write(analysis.totals(), report);
      }
      report.flush();
    }
    // a file of its own: csv for html (whose page has a section too), else the report's format
    String format = cmd.format().equals("json") || cmd.format().equals("table") ? cmd.format() : "csv";
    if (indexes != null) {
      ReportWriter.forIndexes(format).write(analysis.indexes(), indexes);
      indexes.flush();
    }
    if (totals != null) {
      ReportWriter.forTotals(format).write(analysis.totals(), totals);
      totals.flush();
    }
    if (metrics != null) {
      MetricsReport.write(analysis.metrics(), seconds, metrics);
      metrics.flush();
    }
    if (cmd.metricsTextfile() != null) {
      writeAtomically(cmd.metricsTextfile(), "--metrics-textfile",
          w -> new PrometheusReport(runAt, seconds).write(analysis.rows(), w));
    }
  }

  /**
   * Writes {@code path} whole or not at all: into a file beside it, then renamed over it, so a
   * reader (node_exporter's textfile collector) never sees half a file.
   */
  private static void writeAtomically(String path, String option, java.util.function.Consumer<PrintWriter> write) {
    Path target = Path.of(path).toAbsolutePath();
    Path temporary = target.resolveSibling("." + target.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
    try {
      try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(temporary, StandardCharsets.UTF_8))) {
        write.accept(w);
        if (w.checkError()) {
          throw new IOException("the write failed");
        }
      }
      Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException | RuntimeException e) {
      try {
        Files.deleteIfExists(temporary);
      } catch (IOException ignored) {
        // the message below says what went wrong first
      }
      throw new UsageException("cannot write " + option + " " + path + ": " + e.getMessage());
    }
  }

  /** The directory {@code path} goes in must exist and be writable: checked before any work. */
  private static void writableDirectoryOf(String path) {
    Path dir = Path.of(path).toAbsolutePath().getParent();
    if (Files.isDirectory(Path.of(path))) {
      throw new UsageException("cannot write --metrics-textfile " + path + ": it is a directory; name a file in it");
    }
    if (dir == null || !Files.isDirectory(dir) || !Files.isWritable(dir)) {
      throw new UsageException("cannot write --metrics-textfile " + path + ": " + dir
          + " is not a writable directory");
    }
  }

  @Override
  public void close() {
    if (report != null && cmd.output() != null) {
      report.close();
    }
    if (indexes != null) {
      indexes.close();
    }
    if (totals != null) {
      totals.close();
    }
    if (metrics != null) {
      metrics.close();
    }
  }

  private static PrintWriter open(String path, String option, PrintStream out) {
    if (path == null) {
      return new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
    }
    try {
      return new PrintWriter(new OutputStreamWriter(new FileOutputStream(path), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UsageException("cannot write " + option + " " + path + ": " + e.getMessage());
    }
  }

  /** A Parquet output directory must be new: checked before the job where it can be (local paths). */
  private static void requireAbsent(String dir, String option) {
    if (!StorePaths.hasScheme(dir) && Files.exists(Path.of(dir))) {
      throw new UsageException("cannot write " + option + " " + dir + ": it exists; give a new directory, or use "
          + "--append-to to add runs to one dataset");
    }
  }

  /** A Spark write; its failure becomes one line naming the option and the path. */
  private static void sparkWrite(String option, String path, Runnable write) {
    try {
      write.run();
    } catch (RuntimeException e) {
      String message = String.valueOf(e.getMessage()).lines().findFirst().orElse(e.toString());
      throw new UsageException("cannot write " + option + " " + path + ": " + message);
    }
  }
}
