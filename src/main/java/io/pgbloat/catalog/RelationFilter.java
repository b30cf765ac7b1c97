package io.pgbloat.catalog;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.regex.Pattern;

/**
 * Which relations to report: by database name and by {@code schema.name} pattern, where
 * {@code *} matches any run of characters. Empty lists select everything. Shared catalogs
 * belong to no database: a database filter leaves them out.
 */
public final class RelationFilter implements Serializable {
  private static final long serialVersionUID = 1L;

  private final List<String> databases;
  private final List<String> tablePatterns;
  private final List<Pattern> compiled;

  public RelationFilter(List<String> databases, List<String> tablePatterns) {
    this.databases = List.copyOf(databases);
    this.tablePatterns = List.copyOf(tablePatterns);
    this.compiled = this.tablePatterns.stream().map(RelationFilter::compile).toList();
  }

  public static RelationFilter all() {
    return new RelationFilter(List.of(), List.of());
  }

  /** A pattern without a dot names a table in any schema. */
  static Pattern compile(String pattern) {
    String full = pattern.contains(".") ? pattern : "*." + pattern;
    return Pattern.compile(Arrays.stream(full.split("\\*", -1)).map(Pattern::quote)
        .collect(Collectors.joining(".*")), Pattern.DOTALL);
  }

  public List<String> databases() {
    return databases;
  }

  public List<String> tablePatterns() {
    return tablePatterns;
  }

  public boolean selectsDatabase(String name) {
    return databases.isEmpty() || databases.contains(name);
  }

  /** Whether shared catalogs (global/...) are reported: only when no database is named. */
  public boolean selectsShared() {
    return databases.isEmpty();
  }

  public boolean selects(Relation r) {
    if (r.isShared() ? !selectsShared() : !selectsDatabase(r.database())) {
      return false;
    }
    if (compiled.isEmpty()) {
      return true;
    }
    String qualified = r.schema() + "." + r.name();
    return compiled.stream().anyMatch(p -> p.matcher(qualified).matches());
  }
}
