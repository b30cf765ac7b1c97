package io.pgbloat.stats;

import io.pgbloat.page.GinTuples;
import io.pgbloat.page.HashPage;
import io.pgbloat.page.IndexPageKind;
import io.pgbloat.page.IndexPageStats;
import java.util.function.ToIntFunction;

/**
 * A per-page quantity of a hash, GiST, GIN, SP-GiST or BRIN index, summed over its pages: the
 * figures of pgstattuple, pgstathashindex and pgstatginindex, and those of the pages by kind.
 * Each is 0 or 1, or a count or byte count of at most BLCKSZ.
 */
public enum IndexMeasure {
  /** Items pgstattuple counts live (index tuples in use, on GIN, SP-GiST and BRIN pages). */
  LIVE_ITEMS(IndexPageStats::liveItems),
  LIVE_ITEM_BYTES(IndexPageStats::liveItemBytes),
  /** LP_DEAD items (SP-GiST: dead tuples). */
  DEAD_ITEMS(IndexPageStats::deadItems),
  DEAD_ITEM_BYTES(IndexPageStats::deadItemBytes),
  /** Free space as the version's pgstattuple counts it (hash, GiST). */
  FREE_SPACE(IndexPageStats::freeSpace),
  /** pd_upper − pd_lower: free_space of the methods no PostgreSQL function measures. */
  GAP(IndexPageStats::gap),
  /** pgstathashindex's free bytes: a bucket or overflow page's gap, an unused or new page's hashm_bsize. */
  HASH_FREE(p -> switch (p.kind()) {
    case BUCKET, OVERFLOW -> p.gap();
    case UNUSED, NEW -> HashPage.BSIZE;
    default -> 0;
  }),
  /** GIN posting-list heap pointers; BRIN summarized ranges. */
  HEAP_ITEMS(IndexPageStats::heapItems),
  REDIRECTS(IndexPageStats::redirects),
  PLACEHOLDERS(IndexPageStats::placeholders),
  NEW_PAGES(kind(IndexPageKind.NEW)),
  BUCKET_PAGES(kind(IndexPageKind.BUCKET)),
  OVERFLOW_PAGES(kind(IndexPageKind.OVERFLOW)),
  BITMAP_PAGES(kind(IndexPageKind.BITMAP)),
  UNUSED_PAGES(kind(IndexPageKind.UNUSED)),
  LEAF_PAGES(kind(IndexPageKind.LEAF)),
  INNER_PAGES(kind(IndexPageKind.INNER)),
  DELETED_PAGES(kind(IndexPageKind.DELETED)),
  ENTRY_PAGES(p -> p.kind() == IndexPageKind.ENTRY_LEAF || p.kind() == IndexPageKind.ENTRY_INNER ? 1 : 0),
  POSTING_PAGES(p -> p.kind() == IndexPageKind.POSTING_LEAF || p.kind() == IndexPageKind.POSTING_INNER ? 1 : 0),
  PENDING_PAGES(kind(IndexPageKind.PENDING)),
  REVMAP_PAGES(kind(IndexPageKind.REVMAP)),
  REGULAR_PAGES(kind(IndexPageKind.REGULAR)),
  // what a GIN build would write again (GinRebuild), by page kind
  ENTRY_LEAF_ITEMS(gin(IndexPageKind.ENTRY_LEAF, GinTuples::kept)),
  ENTRY_LEAF_SPACE(gin(IndexPageKind.ENTRY_LEAF, GinTuples::keptSpace)),
  ENTRY_INNER_ITEMS(gin(IndexPageKind.ENTRY_INNER, GinTuples::kept)),
  ENTRY_INNER_SPACE(gin(IndexPageKind.ENTRY_INNER, GinTuples::keptSpace)),
  PENDING_ITEMS(gin(IndexPageKind.PENDING, GinTuples::kept)),
  POSTING_TREES(gin(IndexPageKind.ENTRY_LEAF, GinTuples::postingTrees)),
  INLINE_HEAP_POINTERS(gin(IndexPageKind.ENTRY_LEAF, GinTuples::inlineHeapPointers)),
  INLINE_POSTING_BYTES(gin(IndexPageKind.ENTRY_LEAF, GinTuples::inlinePostingBytes)),
  POSTING_LEAF_SPACE(gin(IndexPageKind.POSTING_LEAF, GinTuples::keptSpace)),
  SMALL_TREE_ENDS(gin(IndexPageKind.POSTING_LEAF, t -> t.smallTreeEnd() ? 1 : 0)),
  SMALL_TREE_END_BYTES(gin(IndexPageKind.POSTING_LEAF, t -> t.smallTreeEnd() ? t.keptSpace() : 0)),
  POSTING_INNER_PAGES(kind(IndexPageKind.POSTING_INNER));

  private final ToIntFunction<IndexPageStats> value;

  IndexMeasure(ToIntFunction<IndexPageStats> value) {
    this.value = value;
  }

  private static ToIntFunction<IndexPageStats> gin(IndexPageKind kind, ToIntFunction<GinTuples> value) {
    return p -> p.kind() == kind && p.gin() != null ? value.applyAsInt(p.gin()) : 0;
  }

  private static ToIntFunction<IndexPageStats> kind(IndexPageKind kind) {
    return p -> p.kind() == kind ? 1 : 0;
  }

  /** This quantity on one page. */
  public int of(IndexPageStats page) {
    return value.applyAsInt(page);
  }
}
