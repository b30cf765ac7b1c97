package io.pgbloat.catalog;

import java.util.EnumSet;
import java.util.Set;

/**
 * pg_class.relkind: what a relation is, by the letter the catalog stores and the reports show
 * (RELKIND_* in {@code src/include/catalog/pg_class.h}).
 */
public enum RelKind {
  /** RELKIND_RELATION: an ordinary table. */
  TABLE('r'),
  /** RELKIND_INDEX: an index with storage. */
  INDEX('i'),
  /** RELKIND_SEQUENCE. */
  SEQUENCE('S'),
  /** RELKIND_TOASTVALUE: a table's TOAST table, holding its values stored out of line. */
  TOAST_TABLE('t'),
  /** RELKIND_VIEW. */
  VIEW('v'),
  /** RELKIND_MATVIEW: a materialized view, stored as a heap. */
  MATERIALIZED_VIEW('m'),
  /** RELKIND_COMPOSITE_TYPE. */
  COMPOSITE_TYPE('c'),
  /** RELKIND_FOREIGN_TABLE. */
  FOREIGN_TABLE('f'),
  /** RELKIND_PARTITIONED_TABLE: a partitioned table, with no storage of its own. */
  PARTITIONED_TABLE('p'),
  /** RELKIND_PARTITIONED_INDEX: a partitioned table's index, with no storage of its own. */
  PARTITIONED_INDEX('I');

  private final char letter;

  RelKind(char letter) {
    this.letter = letter;
  }

  /** The kind pg_class stores as {@code letter}, or null for a letter pg_class.h does not define. */
  public static RelKind of(char letter) {
    for (RelKind kind : values()) {
      if (kind.letter == letter) {
        return kind;
      }
    }
    return null;
  }

  /**
   * The kinds this tool reports from a comma-separated list of letters ("r,m"), as --relkind
   * gives them: tables, TOAST tables, materialized views, indexes, and partitioned tables and
   * indexes (rollups of their partitions').
   *
   * @throws IllegalArgumentException for an item that is no letter of those
   */
  public static Set<RelKind> reportedOf(String list) {
    Set<RelKind> kinds = EnumSet.noneOf(RelKind.class);
    for (String item : list.split(",")) {
      String k = item.trim();
      RelKind kind = k.length() == 1 ? of(k.charAt(0)) : null;
      if (kind == null || !kind.isReported()) {
        throw new IllegalArgumentException("unknown relkind '" + k + "'");
      }
      kinds.add(kind);
    }
    return Set.copyOf(kinds);
  }

  /** Whether this tool reports relations of this kind (see {@link #reportedOf}). */
  public boolean isReported() {
    return hasHeapStorage() || isIndex() || this == PARTITIONED_TABLE;
  }

  /** Whether its rows are in heap pages that pgstattuple reads: a table, TOAST table or materialized view. */
  public boolean hasHeapStorage() {
    return this == TABLE || this == TOAST_TABLE || this == MATERIALIZED_VIEW;
  }

  /** Whether it is an index: one with storage, or a partitioned one. */
  public boolean isIndex() {
    return this == INDEX || this == PARTITIONED_INDEX;
  }

  /** The letter pg_class stores. */
  public char letter() {
    return letter;
  }

  /** The letter, as the reports show the kind. */
  @Override
  public String toString() {
    return String.valueOf(letter);
  }
}
