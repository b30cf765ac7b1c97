package io.pgbloat.cli;

import io.pgbloat.advice.ActionThresholds;
import io.pgbloat.catalog.RelKind;
import io.pgbloat.io.read.IoSettings;
import io.pgbloat.options.Option;
import io.pgbloat.options.OptionDocs;
import io.pgbloat.options.OptionException;
import io.pgbloat.options.OptionValues;
import io.pgbloat.options.Options;
import io.pgbloat.options.Surface;
import io.pgbloat.report.AlertCondition;
import io.pgbloat.sample.BlockSampler;
import io.pgbloat.sample.SampleSize;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

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
 * @param kinds --relkind, or empty for every kind
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
    boolean help, String dataDir, List<String> databases, List<String> tables, Set<RelKind> kinds, long minBytes,
    SampleSize sampleSize, long seed, IoSettings io, String format, String output, String appendTo, boolean indexes, String indexOutput,
    boolean totals, String totalsOutput, String metricsOut, String metricsTextfile, List<AlertCondition> failOn,
    ActionThresholds thresholds, String master, Map<String, String> sparkConf, boolean quiet, boolean debug) {

  static final String USAGE = """
      usage: submit.sh analyze --data-dir PATH [options]

      Reports pgstattuple's figures for every table of a stopped PostgreSQL data directory
      (13 to 18), reading its files only (local path, file:// or hdfs:// URI): estimated
      from a block sample, with standard errors and 95 % intervals, or exact.

      options:
      """ + OptionDocs.commandLineHelp() + """

      exit status: 0 report complete; 1 the data has bad pages or files (the report is still
      complete for the rest) or cannot be read; 2 the command line is wrong; 3 a --fail-on
      condition holds for a relation.
      """;

  /** The command line alone, no configuration file's defaults. */
  static CommandLine parse(String[] args) {
    return parse(args, OptionValues::new);
  }

  /**
   * The command line over {@code defaults} (pgbloat.conf's, read only when the command is not
   * --help, so that a bad file does not hide the help): an option given here replaces the
   * default, and any choice of a group replaces the defaults' choice of it.
   */
  static CommandLine parse(String[] args, Supplier<OptionValues> defaults) {
    if (args.length == 0) {
      throw new UsageException("no command given; the command is analyze");
    }
    if (args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
      return helpOnly();
    }
    if (!args[0].equals("analyze")) {
      throw new UsageException("unknown command '" + args[0] + "'; the command is analyze");
    }
    OptionValues given = given(args);
    if (given.get(Options.HELP)) {
      return helpOnly();
    }
    OptionValues v = given.over(defaults.get());
    requireConsistent(v);
    String dataDir = v.get(Options.DATA_DIR);
    return new CommandLine(false, dataDir, v.all(Options.DATABASE), v.all(Options.TABLE), v.get(Options.RELKIND),
        v.get(Options.MIN_SIZE), Options.sampleSize(v), v.get(Options.SEED), Options.io(v, dataDir),
        v.get(Options.FORMAT), v.get(Options.OUTPUT), v.get(Options.APPEND_TO), v.get(Options.INDEXES),
        v.get(Options.INDEX_OUTPUT), v.get(Options.TOTALS), v.get(Options.TOTALS_OUTPUT), v.get(Options.METRICS_OUT),
        v.get(Options.METRICS_TEXTFILE), failOn(v.all(Options.FAIL_ON)), Options.thresholds(v), v.get(Options.MASTER),
        sparkConf(v.all(Options.CONF)), v.get(Options.QUIET), v.get(Options.DEBUG));
  }

  /** The --conf properties by key, in the order given; a key given again takes its last value. */
  private static Map<String, String> sparkConf(List<String> properties) {
    Map<String, String> conf = new LinkedHashMap<>();
    for (String property : properties) {
      int eq = property.indexOf('=');
      conf.put(property.substring(0, eq).strip(), property.substring(eq + 1));
    }
    return conf;
  }

  /** The options given after the command, each checked against its rule; a wrong one is a usage error. */
  private static OptionValues given(String[] args) {
    OptionValues given = new OptionValues();
    try {
      for (int i = 1; i < args.length; i++) {
        String arg = args[i];
        int eq = arg.indexOf('=');
        String name = arg.startsWith("--") && eq > 0 ? arg.substring(0, eq) : arg.equals("-h") ? "--help" : arg;
        String inline = arg.startsWith("--") && eq > 0 ? arg.substring(eq + 1) : null;
        Option<?> option = Options.find(Surface.COMMAND_LINE, name)
            .orElseThrow(() -> new UsageException(arg.startsWith("-") ? "unknown option '" + arg + "'"
                : "unexpected argument '" + arg + "'; options take the form --name VALUE"));
        if (option.isFlag() && inline != null) {
          throw new UsageException(name + " takes no value");
        }
        String value = option.isFlag() ? "true" : inline != null ? inline : value(args, ++i, name);
        given.set(option, value, name);
      }
    } catch (OptionException e) {
      throw new UsageException(e.getMessage());
    }
    return given;
  }

  /** Refuses options that do not go together, each with what to do instead. */
  private static void requireConsistent(OptionValues v) {
    String format = v.get(Options.FORMAT);
    Set<RelKind> kinds = v.get(Options.RELKIND);
    boolean indexes = v.get(Options.INDEXES);
    boolean totals = v.get(Options.TOTALS);
    String indexOutput = v.get(Options.INDEX_OUTPUT);
    String totalsOutput = v.get(Options.TOTALS_OUTPUT);
    if (v.get(Options.DATA_DIR) == null) {
      throw new UsageException("--data-dir is required; give the path of a PostgreSQL data directory");
    }
    if (format.equals("parquet") && v.get(Options.OUTPUT) == null) {
      throw new UsageException("--format parquet needs --output DIR: Parquet is a directory of files, not a stream");
    }
    if (indexes && indexOutput == null && !format.equals("table") && !format.equals("html")) {
      throw new UsageException("--indexes with --format " + format + " needs --index-output FILE for the index report");
    }
    if (kinds.stream().anyMatch(RelKind::isIndex) && !indexes) {
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
  }

  /** The --fail-on conditions, parsed; a wrong one is a usage error in its own words. */
  private static List<AlertCondition> failOn(List<String> conditions) {
    try {
      return conditions.stream().map(AlertCondition::parse).toList();
    } catch (IllegalArgumentException e) {
      throw new UsageException("--fail-on: " + e.getMessage());
    }
  }

  private static CommandLine helpOnly() {
    return new CommandLine(true, null, List.of(), List.of(), Set.of(), 0, SampleSize.DEFAULT, BlockSampler.DEFAULT_SEED,
        IoSettings.defaults(), "table", null, null, false, null, false, null, null, null, List.of(),
        ActionThresholds.DEFAULT, null, Map.of(), false, false);
  }

  private static String value(String[] args, int i, String name) {
    if (i >= args.length || (args[i].startsWith("--") && args[i].length() > 2)) {
      throw new UsageException(name + " needs a value");
    }
    return args[i];
  }
}
