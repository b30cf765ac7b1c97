package io.pgbloat.options;

import static io.pgbloat.options.Surface.COMMAND_LINE;
import static io.pgbloat.options.Surface.CONFIG_FILE;
import static io.pgbloat.options.Surface.DATA_SOURCE;

import io.pgbloat.advice.ActionThresholds;
import io.pgbloat.catalog.RelKind;
import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.io.FileStores;
import io.pgbloat.io.backup.BarmanCloudBackup;
import io.pgbloat.io.backup.PgBackRestFileStore;
import io.pgbloat.io.read.IoSettings;
import io.pgbloat.sample.BlockSampler;
import io.pgbloat.sample.SampleSize;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every option of the tool, in the order the help lists them, and what the settings shared by
 * the command line and the data source make of them. A new option is added here, once.
 */
public final class Options {
  private Options() {}

  private static final Set<Surface> EVERYWHERE = Set.of(COMMAND_LINE, CONFIG_FILE, DATA_SOURCE);
  private static final Set<Surface> COMMAND_AND_SOURCE = Set.of(COMMAND_LINE, DATA_SOURCE);
  private static final Set<Surface> COMMAND_AND_FILE = Set.of(COMMAND_LINE, CONFIG_FILE);
  private static final Set<Surface> COMMAND = Set.of(COMMAND_LINE);

  /** The sample-size options: one way to size the sample. */
  public static final OptionGroup SAMPLE_SIZE = new OptionGroup("size the sample");
  /** --direct-io and --buffered-io: one way to read. */
  public static final OptionGroup READING = new OptionGroup("read");

  private static final ValueRule<Long> SIZE = new ValueRule<>("a size such as 8192, 64kB, 10MB or 1GB",
      RelationFilter::bytes);

  /** A path, or a pgBackRest repository's or Barman Cloud backup's address whose parameters are checked here. */
  private static final ValueRule<String> DATA_DIR_RULE = new ValueRule<>(null, text -> {
    if (text.isBlank()) {
      throw new IllegalArgumentException("needs a non-empty value");
    }
    if (PgBackRestFileStore.Address.isOne(text)) {
      PgBackRestFileStore.Address.parse(text);
    }
    if (BarmanCloudBackup.Address.isOne(text)) {
      BarmanCloudBackup.Address.parse(text);
    }
    return text;
  });

  public static final Option<String> DATA_DIR = Option.value("data-dir", "PATH", DATA_DIR_RULE, COMMAND,
      "the data directory (holds PG_VERSION, global/, base/): a local path, file://… or hdfs://…; or a "
          + "pg_basebackup -Ft directory, a pgBackRest backup as pgbackrest:REPO_PATH[?stanza=NAME&set=LABEL], or a "
          + "Barman Cloud backup as barman:URL?server=NAME[&backup=ID] "
          + "(see \"Backups read in place\"); required (in the data source, load's path)");
  public static final Option<String> DATABASE = Option.value("database", "NAME", ValueRule.TEXT, COMMAND_AND_SOURCE,
      "only this database (repeatable; comma-separated in the data source); shared catalogs are then left out")
      .withDefault(null, "all but template0").asRepeatable();
  public static final Option<String> TABLE = Option.value("table", "PATTERN", ValueRule.TEXT, COMMAND_AND_SOURCE,
      "only relations matching schema.name, * for any characters (repeatable; comma-separated in the data "
          + "source); without a dot, any schema").asRepeatable();
  public static final Option<Set<RelKind>> RELKIND = Option.value("relkind", "KINDS", new ValueRule<>(
      "kinds among r (table), t (TOAST table), m (materialized view), i (index), p (partitioned table), "
          + "I (partitioned index), comma-separated", RelKind::reportedOf), COMMAND_AND_SOURCE,
      "only these kinds, comma-separated: r table, t TOAST table, m materialized view, i index (with --indexes; "
          + "i alone reports the indexes only, their btree indexes' tables sampled, unreported, for what a "
          + "rebuild keeps), p partitioned table (the rollup of its partitions), I partitioned index (the rollup "
          + "of its leaf indexes, with --indexes)").withDefault(Set.of(), "every kind");
  public static final Option<Long> MIN_SIZE = Option.value("min-size", "SIZE", SIZE, COMMAND_AND_SOURCE,
      "only relations of at least SIZE: 8192, 64kB, 10MB, 1GB (units of 1024)").withDefault(0L, null);

  public static final Option<SampleSize> SAMPLE_BLOCKS = Option.value("sample-blocks", "N",
      new ValueRule<>("a whole number of blocks, at least 1", v -> SampleSize.blocks(Long.parseLong(v.trim()))),
      EVERYWHERE, "read N blocks of each table; a table of at most N blocks is read whole, exactly")
      .withDefault(null, Long.toString((long) SampleSize.DEFAULT.value())).inGroup(SAMPLE_SIZE);
  public static final Option<SampleSize> SAMPLE_PERCENT = Option.value("sample-percent", "P",
      new ValueRule<>("a percentage above 0, at most 100", v -> SampleSize.percent(Double.parseDouble(v.trim()))),
      EVERYWHERE, "read P % of each table's blocks (rounded up)").inGroup(SAMPLE_SIZE);
  public static final Option<SampleSize> TARGET_RSE = Option.value("target-rse", "R",
      new ValueRule<>("a fraction above 0 and below 1, e.g. 0.02",
          v -> SampleSize.targetRse(Double.parseDouble(v.trim()))), EVERYWHERE, "read as many blocks as a relative standard error of R (e.g. 0.02) on dead_tuple_len and "
          + "free_space needs: a " + SampleSize.PILOT_BLOCKS + "-block pilot, then the rest").inGroup(SAMPLE_SIZE);
  public static final Option<Boolean> FULL_SCAN = Option.flag("full-scan", EVERYWHERE,
      "read every block: the exact figures, SE 0").inGroup(SAMPLE_SIZE);
  public static final Option<Long> SEED = Option.value("seed", "S",
      new ValueRule<>("a whole number", v -> Long.parseLong(v.trim())), EVERYWHERE,
      "the sample's seed, printed in sample_seed: the same seed reads the same blocks of the same table on any "
          + "cluster, at any parallelism")
      .withDefault(BlockSampler.DEFAULT_SEED, Long.toString(BlockSampler.DEFAULT_SEED));

  public static final Option<String> FORMAT = Option.value("format", "FORMAT",
      ValueRule.oneOf(List.of("table", "csv", "json", "html", "prometheus", "parquet")), COMMAND_AND_FILE,
      "table, csv (RFC 4180 quoting), json (an array of objects), html (one self-contained page with charts), "
          + "prometheus (the text exposition format) or parquet (the CSV's columns, typed)")
      .withDefault("table", "table");
  public static final Option<String> OUTPUT = Option.value("output", "PATH", ValueRule.TEXT, COMMAND,
      "the report to file PATH, opened before the job runs so that a bad path fails at once; for parquet a new "
          + "directory, required").withDefault(null, "standard output");
  public static final Option<Boolean> INDEXES = Option.flag("indexes", COMMAND,
      "also report every index, of every access method (in the data source, level indexes)");
  public static final Option<String> INDEX_OUTPUT = Option.value("index-output", "PATH", ValueRule.TEXT, COMMAND,
      "the index report to PATH: CSV, JSON or a Parquet directory as --format (CSV for html); required but for "
          + "table and html, where the indexes follow the tables or have a section of the page");
  public static final Option<Boolean> TOTALS = Option.flag("totals", COMMAND,
      "also report each table's total, as pg_total_relation_size groups it: heap + TOAST + every index, read "
          + "whatever --table and --relkind say of those parts (in the data source, level totals)");
  public static final Option<String> TOTALS_OUTPUT = Option.value("totals-output", "PATH", ValueRule.TEXT, COMMAND,
      "the totals to PATH, as --index-output takes the index report");
  public static final Option<String> APPEND_TO = Option.value("append-to", "PATH", ValueRule.TEXT, COMMAND,
      "also add this run to the Parquet dataset at PATH (local or hdfs://; made when absent), partitioned by "
          + "run_date (UTC) with a run_at timestamp: bloat's history, one query away");

  public static final Option<Integer> IO_CONCURRENCY = Option.value("io-concurrency", "K",
      ValueRule.count(1, IoSettings.MAX_CONCURRENCY), EVERYWHERE,
      "reads kept in flight per task; 1 reads synchronously, for comparison")
      .withDefault(IoSettings.DEFAULT_CONCURRENCY, Integer.toString(IoSettings.DEFAULT_CONCURRENCY));
  public static final Option<Integer> IO_COMBINE_LIMIT = Option.value("io-combine-limit", "B",
      ValueRule.count(1, IoSettings.MAX_COMBINE_LIMIT), EVERYWHERE,
      "adjacent blocks merged into one read of at most B blocks")
      .withDefault(IoSettings.DEFAULT_COMBINE_LIMIT, IoSettings.DEFAULT_COMBINE_LIMIT + ", 512 kB; "
          + IoSettings.OBJECT_STORE_COMBINE_LIMIT + " on an object store");
  public static final Option<Integer> IO_GAP_LIMIT = Option.value("io-gap-limit", "G",
      ValueRule.count(0, IoSettings.MAX_GAP_LIMIT), EVERYWHERE,
      "up to G unsampled blocks between two sampled ones read through (and dropped) to make one read of two, "
          + "within B; 0 reads only the sampled blocks")
      .withDefault(IoSettings.DEFAULT_GAP_LIMIT, IoSettings.DEFAULT_GAP_LIMIT + "; " + IoSettings.OBJECT_STORE_GAP_LIMIT
          + " on an object store");
  public static final Option<Boolean> DIRECT_IO = Option.flag("direct-io", EVERYWHERE,
      "read with O_DIRECT, past the page cache: none used or filled, no kernel readahead; an error on hdfs://. "
          + "A compressed backup's files are streamed direct too, read ahead by a thread of their own. "
          + "In the data source, false reads through the page cache").withDefault(false, "for a local directory")
      .inGroup(READING);
  public static final Option<Boolean> BUFFERED_IO = Option.flag("buffered-io", COMMAND_AND_FILE,
      "read through the page cache (a second run on a warm cache is quicker)").inGroup(READING);

  public static final Option<String> METRICS_OUT = Option.value("metrics-out", "FILE", ValueRule.TEXT, COMMAND,
      "the run's figures as JSON: blocks and bytes read, read calls, ranges, seconds by step (see \"Run "
          + "metrics\")");
  public static final Option<Long> MIN_WASTED = Option.value("min-wasted", "SIZE", SIZE, EVERYWHERE,
      "the least reclaimable (or dead) bytes worth an action (see \"Actions\")")
      .withDefault(ActionThresholds.DEFAULT.minWastedBytes(), "64MB");
  public static final Option<Double> MIN_PERCENT = Option.value("min-percent", "P", ValueRule.number(0, 100),
      EVERYWHERE, "the least share of a relation, in %, worth an action; both thresholds must pass")
      .withDefault(ActionThresholds.DEFAULT.minPercent(), "20");
  /** Its rule is checked by the command line, which turns each into an AlertCondition. */
  public static final Option<String> FAIL_ON = Option.value("fail-on", "CONDITION", ValueRule.TEXT, COMMAND,
      "exit status 3 when a relation meets CONDITION: a numeric column of the CSV report, >, >=, < or <=, and "
          + "a number or a size (reclaimable_percent>30, dead_tuple_len>=1GB); repeatable, any condition "
          + "suffices. The estimate is compared; each alert line gives its interval").asRepeatable();
  public static final Option<String> METRICS_TEXTFILE = Option.value("metrics-textfile", "FILE", ValueRule.TEXT,
      COMMAND, "also the report in Prometheus' format, written to FILE atomically (a file beside it, then "
          + "renamed): for node_exporter's textfile collector, name it *.prom in its directory");
  public static final Option<String> MASTER = Option.value("master", "URL", ValueRule.TEXT, COMMAND_AND_FILE,
      "the Spark master").withDefault(null, "local[*], or what spark-submit set");
  /** A Spark property as spark-submit's --conf takes it: KEY=VALUE, the key not empty. */
  private static final ValueRule<String> SPARK_PROPERTY = new ValueRule<>("KEY=VALUE (a Spark property)", text -> {
    if (text.indexOf('=') <= 0) {
      throw new IllegalArgumentException(text);
    }
    return text;
  });
  public static final Option<String> CONF = Option.value("conf", "KEY=VALUE", SPARK_PROPERTY, COMMAND,
      "a Spark property for this run, as spark-submit's --conf (repeatable); spark.hadoop.* ones reach the data "
          + "directory's store too: an object store's endpoint and credentials (docs/remote-stores.md)")
      .asRepeatable();
  public static final Option<Boolean> QUIET = Option.flag("quiet", COMMAND,
      "no progress line (it shows only on a terminal: blocks read of planned, rate, time left)");
  public static final Option<Boolean> DEBUG = Option.flag("debug", COMMAND, "stack traces on errors");
  public static final Option<Boolean> HELP = Option.flag("help", COMMAND, "show this help");

  public static final Option<String> LEVEL = Option.value("level", "LEVEL",
      ValueRule.oneOf(List.of("report", "pages", "indexes", "totals")), Set.of(DATA_SOURCE),
      "what a row is: a relation (report), a page read (pages), an index (indexes) or a table's total (totals)")
      .withDefault("report", "report");

  /** Every option, in the help's order. */
  public static final List<Option<?>> ALL = List.of(DATA_DIR, DATABASE, TABLE, RELKIND, MIN_SIZE, SAMPLE_BLOCKS,
      SAMPLE_PERCENT, TARGET_RSE, FULL_SCAN, SEED, FORMAT, OUTPUT, INDEXES, INDEX_OUTPUT, TOTALS, TOTALS_OUTPUT,
      APPEND_TO, IO_CONCURRENCY, IO_COMBINE_LIMIT, IO_GAP_LIMIT, DIRECT_IO, BUFFERED_IO, METRICS_OUT, MIN_WASTED,
      MIN_PERCENT, FAIL_ON, METRICS_TEXTFILE, MASTER, CONF, QUIET, DEBUG, HELP, LEVEL);

  /** The options {@code surface} takes, in the help's order. */
  public static List<Option<?>> on(Surface surface) {
    return ALL.stream().filter(o -> o.takenBy(surface)).toList();
  }

  /** The option {@code surface} spells as {@code spelling} (the data source ignoring case). */
  public static Optional<Option<?>> find(Surface surface, String spelling) {
    return on(surface).stream().filter(o -> surface == DATA_SOURCE ? surface.spelling(o).equalsIgnoreCase(spelling)
        : surface.spelling(o).equals(spelling)).findFirst();
  }

  /** The sample size the values choose, else the default. */
  public static SampleSize sampleSize(OptionValues values) {
    if (values.get(FULL_SCAN)) {
      return SampleSize.fullScan();
    }
    for (Option<SampleSize> size : List.of(SAMPLE_BLOCKS, SAMPLE_PERCENT, TARGET_RSE)) {
      if (values.has(size)) {
        return values.get(size);
      }
    }
    return SampleSize.DEFAULT;
  }

  /**
   * How to read: O_DIRECT when asked, buffered when asked, else O_DIRECT where it can be had —
   * measured faster here for samples and full scans alike (docs/speed.md), and it leaves a
   * live server's page cache alone.
   */
  public static IoSettings io(OptionValues values, String dataDir) {
    // a flag given as false (the data source's directIo=false, a file's buffered-io = false) is
    // no choice of buffered-io's: only directIo=false asks for the page cache
    boolean direct = values.has(DIRECT_IO) ? values.get(DIRECT_IO)
        : !values.get(BUFFERED_IO) && FileStores.isLocal(dataDir);
    boolean objectStore = FileStores.isObjectStore(dataDir);
    int combine = values.has(IO_COMBINE_LIMIT) || !objectStore ? values.get(IO_COMBINE_LIMIT)
        : IoSettings.OBJECT_STORE_COMBINE_LIMIT;
    int gap = values.has(IO_GAP_LIMIT) || !objectStore ? values.get(IO_GAP_LIMIT) : IoSettings.OBJECT_STORE_GAP_LIMIT;
    IoSettings io = new IoSettings(values.get(IO_CONCURRENCY), combine, direct).withGapLimit(gap);
    // K reads of B blocks in flight, as the default's in-flight blocks allow on a local disk
    return objectStore ? io.withInFlightBlocks(Math.min(IoSettings.MAX_IN_FLIGHT_BLOCKS, io.concurrency() * combine)) : io;
  }

  /** The relations the values select, of {@code kinds} (empty for every kind). */
  public static RelationFilter filter(OptionValues values, Set<RelKind> kinds) {
    return new RelationFilter(values.all(DATABASE), values.all(TABLE), kinds, values.get(MIN_SIZE));
  }

  /** When a relation's waste is worth an action. */
  public static ActionThresholds thresholds(OptionValues values) {
    return new ActionThresholds(values.get(MIN_WASTED), values.get(MIN_PERCENT));
  }
}
