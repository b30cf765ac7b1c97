package io.pgbloat.reuse;

import io.pgbloat.catalog.Relation;

/**
 * How a relation's pages are counted, in one line: what, besides a page's bytes and the
 * outcomes of its transactions, its sums depend on. A table's by its columns (a rewrite forms
 * its rows by them, and ALTER TABLE changes them without touching a page) and whether it is a
 * TOAST table; an index's by its access method and fillfactor. Kept sums are reused only where
 * the relation is counted alike.
 */
public final class CountedAs {
  private CountedAs() {}

  /** How {@code r}'s pages are counted. */
  public static String of(Relation r) {
    if (r.kind().isIndex()) {
      return r.am() + " fillfactor " + r.fillfactor();
    }
    return (r.isToast() ? "toast" : "heap") + " columns " + r.columns().signature();
  }
}
