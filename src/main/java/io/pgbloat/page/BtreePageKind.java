package io.pgbloat.page;

/**
 * What a btree page is, decided in the order {@code pgstatindex_impl}
 * ({@code contrib/pgstattuple/pgstatindex.c}) decides it: deleted first, then half-dead
 * (P_IGNORE), then leaf, and everything else internal.
 */
public enum BtreePageKind {
  /** Block 0, the metapage: not counted by pgstatindex, which scans from block 1. */
  META,
  /** BTP_LEAF, neither deleted nor half-dead: counted in leaf_pages, its space in avg_leaf_density. */
  LEAF,
  /** Neither leaf, deleted nor half-dead (the root too, when it is not a leaf): internal_pages. */
  INTERNAL,
  /**
   * A new (all-zero) page. pgstatindex (13-18) reads its btpo_flags as 0 and counts it in
   * internal_pages; kept apart here so that a report can say so.
   */
  NEW,
  /** BTP_HALF_DEAD (and not BTP_DELETED): pgstatindex's empty_pages. */
  HALF_DEAD,
  /** BTP_DELETED, whatever else is set: deleted_pages, whether it was a leaf or not. */
  DELETED,
  /** Failed the header, checksum or btree checks: left out of every figure and counted apart. */
  BAD
}
