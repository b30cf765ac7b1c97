package io.pgbloat.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The files of the configuration directory ({@code conf/}, named by {@code PGBLOAT_CONF_DIR},
 * which submit.sh sets): {@code pgbloat.conf}, the tool's own defaults as {@code option = value}
 * lines, and {@code spark-defaults.conf}, Spark settings as {@code key value} lines. Options on
 * the command line win over both.
 */
final class ConfigFiles {
  static final String TOOL_FILE = "pgbloat.conf";
  static final String SPARK_FILE = "spark-defaults.conf";
  /** Options pgbloat.conf may set; the sample-size ones are one choice. */
  private static final Set<String> TOOL_OPTIONS = Set.of("sample-blocks", "sample-percent", "target-rse", "full-scan",
      "seed", "io-concurrency", "io-combine-limit", "io-gap-limit", "min-wasted", "min-percent", "direct-io", "buffered-io", "format", "master");
  private static final Set<String> SIZING = Set.of("sample-blocks", "sample-percent", "target-rse", "full-scan");

  private ConfigFiles() {}

  /** The directory, or null when none is configured. */
  static Path directory() {
    String dir = System.getenv("PGBLOAT_CONF_DIR");
    return dir == null || dir.isBlank() ? null : Path.of(dir);
  }

  /**
   * {@code args} with the defaults of pgbloat.conf put before the command's options, leaving
   * out every default the command line sets itself (any sample-size option replaces all).
   */
  static String[] withToolDefaults(String[] args, Path dir) {
    if (dir == null || args.length == 0 || !Files.isRegularFile(dir.resolve(TOOL_FILE))) {
      return args;
    }
    Map<String, String> defaults = read(dir.resolve(TOOL_FILE), "=");
    List<String> given = new ArrayList<>();
    for (String arg : args) {
      if (arg.startsWith("--")) {
        given.add(arg.substring(2).split("=", 2)[0]);
      }
    }
    boolean sizingGiven = given.stream().anyMatch(SIZING::contains);
    List<String> merged = new ArrayList<>(List.of(args[0]));
    defaults.forEach((key, value) -> {
      if (!TOOL_OPTIONS.contains(key)) {
        throw new UsageException(dir.resolve(TOOL_FILE) + ": unknown setting '" + key + "'; it may set "
            + String.join(", ", TOOL_OPTIONS.stream().sorted().toList()));
      }
      if (given.contains(key) || (sizingGiven && SIZING.contains(key))) {
        return;
      }
      merged.add("--" + key);
      if (!value.isEmpty() && !value.equals("true")) {
        merged.add(value);
      }
    });
    merged.addAll(List.of(args).subList(1, args.length));
    return merged.toArray(String[]::new);
  }

  /** Spark settings of spark-defaults.conf, or none. */
  static Map<String, String> sparkDefaults(Path dir) {
    if (dir == null || !Files.isRegularFile(dir.resolve(SPARK_FILE))) {
      return Map.of();
    }
    return read(dir.resolve(SPARK_FILE), null);
  }

  /** key/value lines; '#' starts a comment; {@code separator} null means white space. */
  private static Map<String, String> read(Path file, String separator) {
    Map<String, String> values = new LinkedHashMap<>();
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
        values.put(kv[0].strip(), kv.length > 1 ? kv[1].strip() : "");
      }
    } catch (IOException e) {
      throw new UsageException("cannot read " + file + ": " + e.getMessage());
    }
    return values;
  }
}
