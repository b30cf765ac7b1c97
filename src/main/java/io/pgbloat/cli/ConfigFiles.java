package io.pgbloat.cli;

import io.pgbloat.options.Option;
import io.pgbloat.options.OptionException;
import io.pgbloat.options.OptionValues;
import io.pgbloat.options.Options;
import io.pgbloat.options.Surface;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The files of the configuration directory ({@code conf/}, named by {@code PGBLOAT_CONF_DIR},
 * which submit.sh sets): {@code pgbloat.conf}, the tool's own defaults as {@code option = value}
 * lines, and {@code spark-defaults.conf}, Spark settings as {@code key value} lines. Options on
 * the command line win over both.
 */
final class ConfigFiles {
  static final String TOOL_FILE = "pgbloat.conf";
  static final String SPARK_FILE = "spark-defaults.conf";

  private ConfigFiles() {}

  /** The directory, or null when none is configured. */
  static Path directory() {
    String dir = System.getenv("PGBLOAT_CONF_DIR");
    return dir == null || dir.isBlank() ? null : Path.of(dir);
  }

  /**
   * The defaults pgbloat.conf sets, parsed and checked by each option's own rule; none when
   * there is no such file. A bad line is a usage error naming the file, the line and the option.
   */
  static OptionValues toolDefaults(Path dir) {
    OptionValues defaults = new OptionValues();
    if (dir == null || !Files.isRegularFile(dir.resolve(TOOL_FILE))) {
      return defaults;
    }
    Path file = dir.resolve(TOOL_FILE);
    for (Setting setting : read(file, "=")) {
      String where = file + " line " + setting.line() + ": ";
      Option<?> option = Options.find(Surface.CONFIG_FILE, setting.key()).orElseThrow(() -> new UsageException(where
          + "unknown setting '" + setting.key() + "'; it may set " + String.join(", ",
              Options.on(Surface.CONFIG_FILE).stream().map(Option::name).toList())));
      // a flag's line may leave out its value: "full-scan =" sets it
      String value = option.isFlag() && setting.value().isEmpty() ? "true" : setting.value();
      try {
        defaults.set(option, value, where + setting.key());
      } catch (OptionException e) {
        throw new UsageException(e.getMessage());
      }
    }
    return defaults;
  }

  /** Spark settings of spark-defaults.conf, or none. */
  static Map<String, String> sparkDefaults(Path dir) {
    if (dir == null || !Files.isRegularFile(dir.resolve(SPARK_FILE))) {
      return Map.of();
    }
    Map<String, String> settings = new LinkedHashMap<>();
    read(dir.resolve(SPARK_FILE), null).forEach(setting -> settings.put(setting.key(), setting.value()));
    return settings;
  }

  /** One key/value line of a file. */
  private record Setting(int line, String key, String value) {}

  /** key/value lines; '#' starts a comment; {@code separator} null means white space. */
  private static List<Setting> read(Path file, String separator) {
    List<Setting> values = new ArrayList<>();
    try {
      int n = 0;
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        n++;
        String text = line.strip();
        if (text.isEmpty() || text.startsWith("#")) {
          continue;
        }
        String[] kv = separator == null ? text.split("\\s+", 2) : text.split(separator, 2);
        if (separator != null && kv.length < 2) {
          throw new UsageException(file + " line " + n + ": expected 'name = value', found '" + text + "'");
        }
        values.add(new Setting(n, kv[0].strip(), kv.length > 1 ? kv[1].strip() : ""));
      }
    } catch (IOException e) {
      throw new UsageException("cannot read " + file + ": " + e.getMessage());
    }
    return values;
  }
}
