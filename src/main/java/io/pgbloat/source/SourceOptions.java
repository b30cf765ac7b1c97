package io.pgbloat.source;

import io.pgbloat.catalog.RelKind;
import io.pgbloat.io.store.StoreSettings;
import io.pgbloat.options.Option;
import io.pgbloat.options.OptionException;
import io.pgbloat.options.OptionValues;
import io.pgbloat.options.Options;
import io.pgbloat.options.Surface;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.spark.AnalyzeOptions;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The data source's options: the options of {@link Options} the data source takes, named in
 * camel case ({@code sampleBlocks} for {@code --sample-blocks}), lists comma-separated, and
 * the data directory as {@code load}'s path. An unknown option or a bad value fails with one
 * line naming it.
 *
 * @param level report (default), pages, indexes or totals
 * @param analyze what to analyze and how
 */
record SourceOptions(Level level, AnalyzeOptions analyze) {
  /** The key {@code load(path)} sets. */
  private static final String PATH = "path";

  /** These options with the data directory reached with {@code settings}. */
  SourceOptions withStore(StoreSettings settings) {
    return new SourceOptions(level, analyze.withStore(settings));
  }

  static SourceOptions parse(CaseInsensitiveStringMap options) {
    for (String key : options.keySet()) {
      if (!key.equalsIgnoreCase(PATH) && Options.find(Surface.DATA_SOURCE, key).isEmpty()) {
        throw new IllegalArgumentException("pgbloat: unknown option '" + key + "'; the options are " + String.join(", ",
            Options.on(Surface.DATA_SOURCE).stream().map(Option::sourceName).toList()));
      }
    }
    OptionValues values = new OptionValues();
    try {
      for (Option<?> option : Options.on(Surface.DATA_SOURCE)) { // in the options' order, for a stable message
        String value = options.get(option.sourceName()); // the map ignores case
        if (value == null) {
          continue;
        }
        List<String> items = option.repeatable()
            ? Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList() : List.of(value);
        for (String item : items) {
          values.set(option, item, option.sourceName());
        }
      }
    } catch (OptionException e) {
      throw new IllegalArgumentException("pgbloat: option " + e.getMessage());
    }
    String path = options.get(PATH);
    if (path == null || path.isBlank()) {
      throw new IllegalArgumentException("pgbloat: no data directory; give it to load(\"/path/to/pgdata\")");
    }
    try {
      Options.DATA_DIR.rule().parse().apply(path); // the command line's check of a data directory
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("pgbloat: load's path: " + e.getMessage());
    }
    Level level = Level.valueOf(values.get(Options.LEVEL).toUpperCase(Locale.ROOT));
    SampleSize size = Options.sampleSize(values);
    if (level == Level.PAGES && size.mode() == SampleSize.Mode.TARGET_RSE) {
      throw new IllegalArgumentException("pgbloat: level pages reads one sample; size it with sampleBlocks, "
          + "samplePercent or fullScan, not targetRse");
    }
    Set<RelKind> kinds = values.get(Options.RELKIND);
    if (kinds.stream().anyMatch(RelKind::isIndex)) {
      throw new IllegalArgumentException("pgbloat: option relkind takes r, t, m and p; read indexes with level "
          + "indexes");
    }
    boolean indexes = level == Level.INDEXES; // which reports the indexes alone
    Set<RelKind> read = indexes ? Set.of(RelKind.INDEX, RelKind.PARTITIONED_INDEX) : kinds;
    return new SourceOptions(level, new AnalyzeOptions(path, Options.filter(values, read), size,
        values.get(Options.SEED), Options.io(values, path), indexes, AnalyzeOptions.Totals.of(level == Level.TOTALS),
        Options.thresholds(values)));
  }
}
