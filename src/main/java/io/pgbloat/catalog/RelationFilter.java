package io.pgbloat.catalog;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.regex.Pattern;

/**
 * Which relations to report: by database name, by {@code schema.name} pattern (where
 * {@code *} matches any run of characters), by relkind and by a minimum size. Empty lists
 * select everything. Shared catalogs belong to no database: a database filter leaves them out.
 */
public final class RelationFilter implements Serializable {
  private static final long serialVersionUID = 1L;

  private final List<String> databases;
  private final List<String> tablePatterns;
  private final List<Pattern> compiled;
  private final Set<RelKind> kinds;
  private final long minBytes;

  public RelationFilter(List<String> databases, List<String> tablePatterns) {
    this(databases, tablePatterns, Set.of(), 0);
  }

  /**
   * @param kinds relkinds to keep (of those {@link RelKind#isReported}); empty keeps every kind
   * @param minBytes relations smaller than this (main fork) are left out; 0 keeps all
   */
  public RelationFilter(List<String> databases, List<String> tablePatterns, Set<RelKind> kinds, long minBytes) {
    this.databases = List.copyOf(databases);
    this.tablePatterns = List.copyOf(tablePatterns);
    this.compiled = this.tablePatterns.stream().map(RelationFilter::compile).toList();
    this.kinds = Set.copyOf(kinds);
    this.minBytes = minBytes;
  }

  public static RelationFilter all() {
    return new RelationFilter(List.of(), List.of());
  }

  /**
   * A size in bytes from "8192", "64kB", "10MB", "1GB" or "2TB" (units of 1024, as
   * PostgreSQL's settings; case ignored).
   *
   * @throws IllegalArgumentException when it is none of those, or negative
   */
  public static long bytes(String size) {
    String s = size.trim().toUpperCase(java.util.Locale.ROOT);
    String[] units = {"TB", "GB", "MB", "KB"};
    long factor = 1;
    for (int i = 0; i < units.length; i++) {
      if (s.endsWith(units[i])) {
        factor = 1L << (10 * (units.length - i));
        s = s.substring(0, s.length() - 2).trim();
        break;
      }
    }
    if (s.endsWith("B")) {
      s = s.substring(0, s.length() - 1).trim();
    }
    long n = Long.parseLong(s);
    if (n < 0 || n > Long.MAX_VALUE / factor) {
      throw new IllegalArgumentException("size out of range: " + size);
    }
    return n * factor;
  }

  /** Whether any relation with heap storage (table, TOAST table, materialized view), or a partitioned table, is kept. */
  public boolean selectsTables() {
    return kinds.isEmpty() || kinds.stream().anyMatch(k -> k.hasHeapStorage() || k == RelKind.PARTITIONED_TABLE);
  }

  /** Whether any index (or partitioned index) is kept. */
  public boolean selectsIndexes() {
    return kinds.isEmpty() || kinds.stream().anyMatch(RelKind::isIndex);
  }

  /** Whether relations of relkind {@code kind} are kept. */
  public boolean selectsKind(RelKind kind) {
    return kinds.isEmpty() || kinds.contains(kind);
  }

  /** Whether a relation whose main fork has {@code bytes} is large enough to report. */
  public boolean selectsSize(long bytes) {
    return bytes >= minBytes;
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

  /** The relkinds kept; empty for every kind. */
  public Set<RelKind> kinds() {
    return kinds;
  }

  /** The least main-fork size kept, in bytes. */
  public long minBytes() {
    return minBytes;
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
    if (!selectsKind(r.kind())) {
      return false;
    }
    return selectsName(r);
  }

  /** Whether {@code r}'s schema.name matches a table pattern (or there is none). */
  public boolean selectsName(Relation r) {
    if (compiled.isEmpty()) {
      return true;
    }
    String qualified = r.schema() + "." + r.name();
    return compiled.stream().anyMatch(p -> p.matcher(qualified).matches());
  }
}
