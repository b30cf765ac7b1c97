package io.pgbloat.cli;

import io.pgbloat.advice.ActionThresholds;
import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.io.FileStores;
import io.pgbloat.io.IoSettings;
import io.pgbloat.report.AlertCondition;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.spark.AnalyzeOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * The parsed command line of {@code pgbloat analyze}.
 *
 * @param help --help was given: print usage, do nothing else
 * @param dataDir --data-dir
 * @param databases --database, repeatable
 * @param tables --table, repeatable
 * @param sampleSize --full-scan, --sample-blocks, --sample-percent or --target-rse
 * @param seed --seed
 * @param io --io-concurrency, --io-combine-limit, --direct-io or --buffered-io (default: O_DIRECT for
 *     a local directory)
 * @param kinds --relkind as letters ("rm"), or "" for every kind
 * @param minBytes --min-size in bytes, 0 for none
 * @param format --format: table, csv, json, html, prometheus or parquet
 * @param output --output, or null for standard output (a directory for parquet)
 * @param appendTo --append-to: a Parquet dataset this run is added to, or null
 * @param indexes --indexes: also report the indexes
 * @param indexOutput --index-output: where the index report goes, or null (after the table report)
 * @param totals --totals: also report each table's total (heap, TOAST, indexes)
 * @param totalsOutput --totals-output: where the totals go, or null (after the other reports)
 * @param metricsOut --metrics-out, or null
 * @param metricsTextfile --metrics-textfile: the report in Prometheus' format, written atomically, or null
 * @param failOn --fail-on, repeatable: conditions that make the exit status {@link Main#EXIT_ALERT}
 * @param thresholds --min-wasted and --min-percent: when a relation's waste is worth an action
 * @param master --master, or null for the default
 * @param quiet --quiet: no progress line
 * @param debug --debug: stack traces on errors
 */
record CommandLine(
    boolean help, String dataDir, List<String> databases, List<String> tables, String kinds, long minBytes,
    SampleSize sampleSize, long seed, IoSettings io, String format, String output, String appendTo, boolean indexes, String indexOutput,
    boolean totals, String totalsOutput, String metricsOut, String metricsTextfile, List<AlertCondition> failOn,
    ActionThresholds thresholds, String master, boolean quiet, boolean debug) {

  static final String USAGE = """
      usage: submit.sh analyze --data-dir PATH [options]

      Reports pgstattuple's figures for every table of a stopped PostgreSQL data directory
      (13 to 18), reading its files only (local path, file:// or hdfs:// URI): estimated
      from a block sample, with standard errors and 95 % intervals, or exact.

      options:
        --data-dir PATH       the data directory (holds PG_VERSION, global/, base/); required
        --database NAME       only this database; repeatable (default: all but template0)
        --table PATTERN       only tables matching schema.name, * for any characters; repeatable
        --relkind KINDS       only these kinds: r table, t TOAST table, m materialized view, i index,
                              p partitioned table (its partitions summed), I partitioned index
                              (with --indexes; i alone: indexes only reported), e.g. r,m
        --min-size SIZE       only relations of at least SIZE (8192, 64kB, 10MB, 1GB)
        --sample-blocks N     read N blocks of each table (default 3000; smaller tables whole)
        --sample-percent P    read P % of each table's blocks
        --target-rse R        read as many blocks as a relative standard error R (e.g. 0.02)
                              on dead and free bytes needs: a 300-block pilot, then the rest
        --full-scan           read every block: the exact figures
        --seed S              the sample's seed (default 1): the same seed reads the same blocks
        --io-concurrency K    reads kept in flight per task (default 16; 1 = synchronous)
        --io-combine-limit B  adjacent blocks merged into one read, at most B (default 64)
        --io-gap-limit G      up to G unsampled blocks between two sampled ones read through and
                              dropped, to make one read of two (within B; default 4, 0 = never)
        --direct-io           read with O_DIRECT (the default for a local directory): no page
                              cache used or filled, no kernel readahead; an error elsewhere
        --buffered-io         read through the page cache (a second run on a warm cache is quicker)
        --format FORMAT       table (default), csv, json, html (one self-contained page with
                              charts), prometheus (text exposition format) or parquet
        --output PATH         write the report to file PATH instead of standard output;
                              for parquet a directory, made by the run (required)
        --indexes             also report every index, of every access method: pgstatindex's,
                              pgstathashindex's, pgstattuple's, pgstatginindex's figures and
                              pages by kind, sampled like the tables (metapage always read)
        --index-output PATH   the index report to PATH: csv, json or parquet (a new directory) as
                              --format, csv for html; required but for table and html (the
                              indexes then follow the tables, or have a section of the page)
        --totals              also report each table's total, as pg_total_relation_size groups it:
                              heap + TOAST + every index (read whatever --table and
                              --relkind say of them), wasted and reclaimable bytes
        --totals-output PATH  the totals to PATH: csv, json or parquet as --format, csv for html;
                              required but for table and html
        --append-to PATH      also add this run to the Parquet dataset at PATH (made if absent),
                              partitioned by run_date, with a run_at column: bloat over time
        --metrics-out FILE    write the run's figures (blocks and bytes read, seconds) as JSON
        --min-wasted SIZE     the least reclaimable (or dead) bytes worth an action (default 64MB)
        --min-percent P       the least share of a relation, in %, worth an action (default 20)
        --fail-on CONDITION   exit with status 3, naming each relation on standard error, when a
                              relation meets CONDITION: a column, > >= < <=, a number or size,
                              e.g. reclaimable_percent>30 or dead_tuple_len>=1GB; repeatable
        --metrics-textfile FILE
                              also write the report in Prometheus' format to FILE, atomically
                              (for node_exporter's textfile collector: name it *.prom)
        --master URL          Spark master (default: local[*], or what spark-submit says)
        --quiet               no progress line (it shows only on a terminal anyway)
        --debug               show stack traces on errors
        --help                show this help

      exit status: 0 report complete, 1 the data has bad pages or files (report still
      complete for the rest) or cannot be read, 2 the command line is wrong.
      """;

  private static final List<String> FORMATS = List.of("table", "csv", "json", "html", "prometheus", "parquet");

  static CommandLine parse(String[] args) {
    if (args.length == 0) {
      throw new UsageException("no command given; the command is analyze");
    }
    boolean help = false;
    String dataDir = null;
    List<String> databases = new ArrayList<>();
    List<String> tables = new ArrayList<>();
    List<String> sizing = new ArrayList<>();
    SampleSize sampleSize = SampleSize.DEFAULT;
    long seed = AnalyzeOptions.DEFAULT_SEED;
    int ioConcurrency = IoSettings.DEFAULT_CONCURRENCY;
    int ioCombineLimit = IoSettings.DEFAULT_COMBINE_LIMIT;
    int ioGapLimit = IoSettings.DEFAULT_GAP_LIMIT;
    boolean directIo = false;
    boolean bufferedIo = false;
    String format = "table";
    String output = null;
    String appendTo = null;
    boolean indexes = false;
    String indexOutput = null;
    boolean totals = false;
    String totalsOutput = null;
    String metricsOut = null;
    String metricsTextfile = null;
    List<AlertCondition> failOn = new ArrayList<>();
    long minWasted = ActionThresholds.DEFAULT.minWastedBytes();
    double minPercent = ActionThresholds.DEFAULT.minPercent();
    String master = null;
    String kinds = "";
    long minBytes = 0;
    boolean quiet = false;
    boolean debug = false;
    int i = 0;
    if (args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
      return helpOnly();
    }
    if (!args[0].equals("analyze")) {
      throw new UsageException("unknown command '" + args[0] + "'; the command is analyze");
    }
    for (i = 1; i < args.length; i++) {
      String arg = args[i];
      String name = arg;
      String inline = null;
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 0) {
        name = arg.substring(0, eq);
        inline = arg.substring(eq + 1);
      }
      switch (name) {
        case "--help", "-h" -> help = true;
        case "--full-scan" -> {
          flag(name, inline);
          sizing.add(name);
          sampleSize = SampleSize.fullScan();
        }
        case "--sample-blocks" -> {
          sizing.add(name);
          String v = inline != null ? inline : value(args, ++i, name);
          sampleSize = sized(name, () -> SampleSize.blocks(Long.parseLong(v)), "a whole number of blocks, at least 1", v);
        }
        case "--sample-percent" -> {
          sizing.add(name);
          String v = inline != null ? inline : value(args, ++i, name);
          sampleSize = sized(name, () -> SampleSize.percent(Double.parseDouble(v)), "a percentage above 0, at most 100", v);
        }
        case "--target-rse" -> {
          sizing.add(name);
          String v = inline != null ? inline : value(args, ++i, name);
          sampleSize = sized(name, () -> SampleSize.targetRse(Double.parseDouble(v)), "a fraction above 0 and below 1, e.g. 0.02", v);
        }
        case "--direct-io" -> directIo = flag(name, inline);
        case "--buffered-io" -> bufferedIo = flag(name, inline);
        case "--io-concurrency" -> ioConcurrency = count(name, inline != null ? inline : value(args, ++i, name),
            IoSettings.MAX_CONCURRENCY);
        case "--io-combine-limit" -> ioCombineLimit = count(name, inline != null ? inline : value(args, ++i, name),
            IoSettings.MAX_COMBINE_LIMIT);
        case "--io-gap-limit" -> ioGapLimit = count(name, inline != null ? inline : value(args, ++i, name), 0,
            IoSettings.MAX_GAP_LIMIT);
        case "--seed" -> {
          String v = inline != null ? inline : value(args, ++i, name);
          try {
            seed = Long.parseLong(v);
          } catch (NumberFormatException e) {
            throw new UsageException("--seed needs a whole number, not '" + v + "'");
          }
        }
        case "--debug" -> debug = flag(name, inline);
        case "--quiet" -> quiet = flag(name, inline);
        case "--indexes" -> indexes = flag(name, inline);
        case "--index-output" -> indexOutput = nonEmpty(name, inline != null ? inline : value(args, ++i, name));
        case "--totals" -> totals = flag(name, inline);
        case "--totals-output" -> totalsOutput = nonEmpty(name, inline != null ? inline : value(args, ++i, name));
        case "--relkind" -> {
          String v = inline != null ? inline : value(args, ++i, name);
          try {
            kinds = RelationFilter.kinds(v);
          } catch (IllegalArgumentException e) {
            throw new UsageException("--relkind needs kinds among r (table), t (TOAST table), m (materialized view), "
                + "i (index), p (partitioned table), I (partitioned index), comma-separated, not '" + v + "'");
          }
        }
        case "--min-size" -> minBytes = size(name, inline != null ? inline : value(args, ++i, name),
            "8192, 64kB, 10MB or 1GB");
        case "--append-to" -> appendTo = nonEmpty(name, inline != null ? inline : value(args, ++i, name));
        case "--data-dir" -> dataDir = nonEmpty(name, inline != null ? inline : value(args, ++i, name));
        case "--database" -> databases.add(nonEmpty(name, inline != null ? inline : value(args, ++i, name)));
        case "--table" -> tables.add(nonEmpty(name, inline != null ? inline : value(args, ++i, name)));
        case "--output" -> output = nonEmpty(name, inline != null ? inline : value(args, ++i, name));
        case "--metrics-out" -> metricsOut = nonEmpty(name, inline != null ? inline : value(args, ++i, name));
        case "--metrics-textfile" -> metricsTextfile = nonEmpty(name, inline != null ? inline : value(args, ++i, name));
        case "--min-wasted" -> minWasted = size(name, inline != null ? inline : value(args, ++i, name), "64MB or 1GB");
        case "--min-percent" -> {
          String v = inline != null ? inline : value(args, ++i, name);
          try {
            minPercent = Double.parseDouble(v);
          } catch (NumberFormatException e) {
            minPercent = Double.NaN;
          }
          if (!(minPercent >= 0 && minPercent <= 100)) {
            throw new UsageException("--min-percent needs a number from 0 to 100, not '" + v + "'");
          }
        }
        case "--fail-on" -> {
          String v = inline != null ? inline : value(args, ++i, name);
          try {
            failOn.add(AlertCondition.parse(v));
          } catch (IllegalArgumentException e) {
            throw new UsageException("--fail-on: " + e.getMessage());
          }
        }
        case "--master" -> master = nonEmpty(name, inline != null ? inline : value(args, ++i, name));
        case "--format" -> {
          format = inline != null ? inline : value(args, ++i, name);
          if (!FORMATS.contains(format)) {
            throw new UsageException("unknown --format '" + format + "'; use one of " + String.join(", ", FORMATS));
          }
        }
        default -> throw new UsageException(arg.startsWith("-")
            ? "unknown option '" + arg + "'"
            : "unexpected argument '" + arg + "'; options take the form --name VALUE");
      }
    }
    if (help) {
      return helpOnly();
    }
    if (sizing.size() > 1) {
      throw new UsageException(String.join(" and ", sizing) + " cannot be combined; choose one way to size the sample");
    }
    if (dataDir == null) {
      throw new UsageException("--data-dir is required; give the path of a PostgreSQL data directory");
    }
    if (format.equals("parquet") && output == null) {
      throw new UsageException("--format parquet needs --output DIR: Parquet is a directory of files, not a stream");
    }
    if (directIo && bufferedIo) {
      throw new UsageException("--direct-io and --buffered-io cannot be combined; choose one way to read");
    }
    // O_DIRECT by default where it can be had: measured faster here for samples and full scans
    // alike (README, "Speed"), and it leaves a live server's page cache alone.
    boolean direct = directIo || (!bufferedIo && FileStores.isLocal(dataDir));
    if (indexes && indexOutput == null && !format.equals("table") && !format.equals("html")) {
      throw new UsageException("--indexes with --format " + format + " needs --index-output FILE for the index report");
    }
    if ((kinds.indexOf('i') >= 0 || kinds.indexOf('I') >= 0) && !indexes) {
      throw new UsageException("--relkind i and I select indexes; add --indexes");
    }
    if (totals && totalsOutput == null && !format.equals("table") && !format.equals("html")) {
      throw new UsageException("--totals with --format " + format + " needs --totals-output FILE for the totals");
    }
    if (totalsOutput != null && !totals) {
      throw new UsageException("--totals-output is for the totals; add --totals");
    }
    if (indexOutput != null && !indexes) {
      throw new UsageException("--index-output is for the index report; add --indexes");
    }
    return new CommandLine(false, dataDir, databases, tables, kinds, minBytes, sampleSize, seed,
        new IoSettings(ioConcurrency, ioCombineLimit, direct).withGapLimit(ioGapLimit), format, output, appendTo,
        indexes, indexOutput, totals, totalsOutput, metricsOut, metricsTextfile, List.copyOf(failOn),
        new ActionThresholds(minWasted, minPercent), master, quiet, debug);
  }

  private static CommandLine helpOnly() {
    return new CommandLine(true, null, List.of(), List.of(), "", 0, SampleSize.DEFAULT, AnalyzeOptions.DEFAULT_SEED,
        IoSettings.defaults(), "table", null, null, false, null, false, null, null, null, List.of(),
        ActionThresholds.DEFAULT, null, false, false);
  }

  /** A sample size from {@code value}, or a usage error saying what was expected. */
  private static SampleSize sized(String name, java.util.function.Supplier<SampleSize> parse, String expected,
      String value) {
    try {
      return parse.get();
    } catch (IllegalArgumentException e) { // NumberFormatException included
      throw new UsageException(name + " needs " + expected + ", not '" + value + "'");
    }
  }

  /** A size in bytes ({@link RelationFilter#bytes}), or a usage error giving {@code examples}. */
  private static long size(String name, String value, String examples) {
    try {
      return RelationFilter.bytes(value);
    } catch (IllegalArgumentException e) {
      throw new UsageException(name + " needs a size such as " + examples + ", not '" + value + "'");
    }
  }

  /** A whole number from 1 to {@code max}, or a usage error. */
  private static int count(String name, String value, int max) {
    return count(name, value, 1, max);
  }

  /** A whole number from {@code min} to {@code max}, or a usage error. */
  private static int count(String name, String value, int min, int max) {
    try {
      int n = Integer.parseInt(value);
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException(name + " needs a whole number from " + min + " to " + max + ", not '" + value + "'");
  }

  private static String value(String[] args, int i, String name) {
    if (i >= args.length || (args[i].startsWith("--") && args[i].length() > 2)) {
      throw new UsageException(name + " needs a value");
    }
    return args[i];
  }

  private static String nonEmpty(String name, String value) {
    if (value.isBlank()) {
      throw new UsageException(name + " needs a non-empty value");
    }
    return value;
  }

  private static boolean flag(String name, String inline) {
    if (inline != null) {
      throw new UsageException(name + " takes no value");
    }
    return true;
  }
}
