package io.pgbloat.catalog;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
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
  private final String kinds;
  private final long minBytes;

  public RelationFilter(List<String> databases, List<String> tablePatterns) {
    this(databases, tablePatterns, "", 0);
  }

  /**
   * @param kinds relkinds to keep ('r', 't', 'm', 'i'), e.g. "rm"; empty keeps every kind
   * @param minBytes relations smaller than this (main fork) are left out; 0 keeps all
   */
  public RelationFilter(List<String> databases, List<String> tablePatterns, String kinds, long minBytes) {
    this.databases = List.copyOf(databases);
    this.tablePatterns = List.copyOf(tablePatterns);
    this.compiled = this.tablePatterns.stream().map(RelationFilter::compile).toList();
    this.kinds = kinds;
    this.minBytes = minBytes;
  }

  public static RelationFilter all() {
    return new RelationFilter(List.of(), List.of());
  }

  /**
   * relkinds this tool reports: tables, TOAST tables, materialized views, indexes, and
   * partitioned tables and indexes (rollups of their partitions').
   */
  public static final String KINDS = "rtmipI";

  /**
   * relkinds from a comma-separated list ("r,m"), as a string of letters ("rm").
   *
   * @throws IllegalArgumentException for a letter not in {@link #KINDS}
   */
  public static String kinds(String list) {
    StringBuilder kinds = new StringBuilder();
    for (String item : list.split(",")) {
      String k = item.trim();
      if (k.length() != 1 || KINDS.indexOf(k.charAt(0)) < 0) {
        throw new IllegalArgumentException("unknown relkind '" + k + "'");
      }
      kinds.append(k.charAt(0));
    }
    return kinds.toString();
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
    return selectsKind('r') || selectsKind('t') || selectsKind('m') || selectsKind('p');
  }

  /** Whether relations of relkind {@code kind} are kept. */
  public boolean selectsKind(char kind) {
    return kinds.isEmpty() || kinds.indexOf(kind) >= 0;
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

  /** The relkinds kept, as letters; empty for every kind. */
  public String kinds() {
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
