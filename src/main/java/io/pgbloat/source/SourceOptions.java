package io.pgbloat.source;

import io.pgbloat.advice.ActionThresholds;
import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.io.FileStores;
import io.pgbloat.io.IoSettings;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.spark.AnalyzeOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The data source's options, named as the CLI's flags in camel case ({@code sampleBlocks}
 * for {@code --sample-blocks}); lists are comma-separated. An unknown option or a bad value
 * fails with one line naming it.
 *
 * @param level report (default), pages, indexes or totals
 * @param analyze what to analyze and how
 */
record SourceOptions(Level level, AnalyzeOptions analyze) {
  private static final Set<String> KNOWN = Set.of("path", "level", "fullscan", "sampleblocks", "samplepercent",
      "targetrse", "seed", "database", "table", "relkind", "minsize", "ioconcurrency", "iocombinelimit", "iogaplimit", "directio",
      "minwasted", "minpercent");
  private static final List<String> SIZING = List.of("fullScan", "sampleBlocks", "samplePercent", "targetRse");

  static SourceOptions parse(CaseInsensitiveStringMap options) {
    for (String key : options.keySet()) {
      if (!KNOWN.contains(key.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("pgbloat: unknown option '" + key + "'; the options are level, fullScan, "
            + "sampleBlocks, samplePercent, targetRse, seed, database, table, relkind, minSize, ioConcurrency, "
            + "ioCombineLimit, ioGapLimit, directIo, minWasted, minPercent");
      }
    }
    String path = options.get("path");
    if (path == null || path.isBlank()) {
      throw new IllegalArgumentException("pgbloat: no data directory; give it to load(\"/path/to/pgdata\")");
    }
    Level level = value(options, "level", v -> Level.valueOf(v.toUpperCase(Locale.ROOT)), Level.REPORT,
        "report, pages, indexes or totals");
    List<String> sizing = SIZING.stream().filter(options::containsKey).toList();
    if (sizing.size() > 1) {
      throw new IllegalArgumentException("pgbloat: " + String.join(" and ", sizing) + " cannot be combined");
    }
    SampleSize size = SampleSize.DEFAULT;
    if (options.getBoolean("fullScan", false)) {
      size = SampleSize.fullScan();
    } else if (options.containsKey("sampleBlocks")) {
      size = value(options, "sampleBlocks", v -> SampleSize.blocks(Long.parseLong(v)), null, "a whole number, at least 1");
    } else if (options.containsKey("samplePercent")) {
      size = value(options, "samplePercent", v -> SampleSize.percent(Double.parseDouble(v)), null,
          "a percentage above 0, at most 100");
    } else if (options.containsKey("targetRse")) {
      if (level == Level.PAGES) {
        throw new IllegalArgumentException("pgbloat: level pages reads one sample; size it with sampleBlocks, "
            + "samplePercent or fullScan, not targetRse");
      }
      size = value(options, "targetRse", v -> SampleSize.targetRse(Double.parseDouble(v)), null,
          "a fraction above 0 and below 1, e.g. 0.02");
    }
    long seed = value(options, "seed", Long::parseLong, AnalyzeOptions.DEFAULT_SEED, "a whole number");
    IoSettings io = new IoSettings(
        value(options, "ioConcurrency", Integer::parseInt, IoSettings.DEFAULT_CONCURRENCY,
            "a whole number from 1 to " + IoSettings.MAX_CONCURRENCY),
        value(options, "ioCombineLimit", Integer::parseInt, IoSettings.DEFAULT_COMBINE_LIMIT,
            "a whole number from 1 to " + IoSettings.MAX_COMBINE_LIMIT),
        options.getBoolean("directIo", FileStores.isLocal(path))) // O_DIRECT where it can be had, as the CLI
        .withGapLimit(value(options, "ioGapLimit", Integer::parseInt, IoSettings.DEFAULT_GAP_LIMIT,
            "a whole number from 0 to " + IoSettings.MAX_GAP_LIMIT));
    boolean indexes = level == Level.INDEXES;
    String kinds = value(options, "relkind", RelationFilter::kinds, "", "relkinds among r, t, m, e.g. r,m");
    if (kinds.indexOf('i') >= 0) {
      throw new IllegalArgumentException("pgbloat: option relkind takes r, t and m; read indexes with level indexes");
    }
    RelationFilter filter = new RelationFilter(list(options, "database"), list(options, "table"),
        indexes ? "iI" : kinds, // the index level reports the indexes alone
        value(options, "minSize", RelationFilter::bytes, 0L, "a size such as 8192, 10MB or 1GB"));
    ActionThresholds thresholds = new ActionThresholds(
        value(options, "minWasted", RelationFilter::bytes, ActionThresholds.DEFAULT.minWastedBytes(),
            "a size such as 64MB or 1GB"),
        value(options, "minPercent", Double::parseDouble, ActionThresholds.DEFAULT.minPercent(),
            "a number from 0 to 100"));
    return new SourceOptions(level, new AnalyzeOptions(path, filter, size, seed, io, indexes, level == Level.TOTALS,
        thresholds));
  }

  private static <T> T value(CaseInsensitiveStringMap options, String key, Function<String, T> parse, T absent,
      String expected) {
    String v = options.get(key);
    if (v == null) {
      return absent;
    }
    try {
      return parse.apply(v.trim());
    } catch (IllegalArgumentException e) { // NumberFormatException included
      throw new IllegalArgumentException("pgbloat: option " + key + " needs " + expected + ", not '" + v + "'");
    }
  }

  private static List<String> list(CaseInsensitiveStringMap options, String key) {
    String v = options.get(key);
    List<String> items = new ArrayList<>();
    if (v != null) {
      Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(items::add);
    }
    return items;
  }
}
