package io.pgbloat.stats;

import static io.pgbloat.page.IndexAccessMethod.BRIN;
import static io.pgbloat.page.IndexAccessMethod.BTREE;
import static io.pgbloat.page.IndexAccessMethod.GIN;
import static io.pgbloat.page.IndexAccessMethod.GIST;
import static io.pgbloat.page.IndexAccessMethod.HASH;
import static io.pgbloat.page.IndexAccessMethod.SPGIST;

import io.pgbloat.page.BtreeLeafEntries;
import io.pgbloat.page.BtreePage;
import io.pgbloat.page.GinTuples;
import io.pgbloat.page.HashPage;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexPageKind;
import io.pgbloat.page.IndexPageStats;
import io.pgbloat.page.PageHeader;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * A per-page quantity of an index summed over its pages: the figures of pgstatindex,
 * pgstattuple, pgstathashindex and pgstatginindex, those of the pages by kind, and what a fresh
 * build writes again. Each is 0 or 1 (a page of a kind), or a count or byte count of at most
 * BLCKSZ, but for a btree leaf's build bytes, which spelling out posting lists can
 * make larger, and a GIN entry leaf's build room, about twice its bytes. Each is of the access methods whose figures it makes ({@link #of}): an index's
 * pages are summed in its method's measures alone.
 */
public enum IndexMeasure {
  /** Items pgstattuple counts live (index tuples in use, on GIN, SP-GiST and BRIN pages). */
  LIVE_ITEMS(IndexPageStats::liveItems, Scale.ITEMS, HASH, GIST, GIN, SPGIST, BRIN),
  LIVE_ITEM_BYTES(IndexPageStats::liveItemBytes, Scale.BYTES, HASH, GIST, GIN, SPGIST, BRIN),
  /** LP_DEAD items (SP-GiST: dead tuples). */
  DEAD_ITEMS(IndexPageStats::deadItems, Scale.ITEMS, HASH, GIST, GIN, SPGIST, BRIN),
  DEAD_ITEM_BYTES(IndexPageStats::deadItemBytes, Scale.BYTES, HASH, GIST, GIN, SPGIST, BRIN),
  /** Free space as the version's pgstattuple counts it (hash, GiST). */
  FREE_SPACE(IndexPageStats::freeSpace, Scale.BYTES, HASH, GIST),
  /** pd_upper − pd_lower: free_space of the methods no PostgreSQL function measures. */
  GAP(IndexPageStats::gap, Scale.BYTES, GIN, SPGIST, BRIN),
  /** pgstathashindex's free bytes: a bucket or overflow page's gap, an unused or new page's hashm_bsize. */
  HASH_FREE(p -> switch (p.kind()) {
    case BUCKET, OVERFLOW -> p.gap();
    case UNUSED, NEW -> HashPage.BSIZE;
    default -> 0;
  }, Scale.BYTES, HASH),
  /** GIN posting-list heap pointers; BRIN summarized ranges; a btree leaf's live entries' heap TIDs. */
  HEAP_ITEMS(IndexPageStats::heapItems, Scale.ITEMS, BTREE, GIN, BRIN),
  REDIRECTS(IndexPageStats::redirects, Scale.ITEMS, SPGIST),
  PLACEHOLDERS(IndexPageStats::placeholders, Scale.ITEMS, SPGIST),
  /** New (all-zero) pages: a hash index's unused pages, and a btree's among its internal ones. */
  NEW_PAGES(IndexPageKind.NEW, BTREE, HASH),
  BUCKET_PAGES(IndexPageKind.BUCKET, HASH),
  OVERFLOW_PAGES(IndexPageKind.OVERFLOW, HASH),
  BITMAP_PAGES(IndexPageKind.BITMAP, HASH),
  UNUSED_PAGES(IndexPageKind.UNUSED, HASH),
  /** Leaf pages: a btree's leaf_pages. */
  LEAF_PAGES(IndexPageKind.LEAF, BTREE, GIST, SPGIST),
  INNER_PAGES(IndexPageKind.INNER, GIST, SPGIST),
  /** Deleted pages: a btree's deleted_pages. */
  DELETED_PAGES(IndexPageKind.DELETED, BTREE, GIST, GIN),
  ENTRY_PAGES(p -> p.kind() == IndexPageKind.ENTRY_LEAF || p.kind() == IndexPageKind.ENTRY_INNER ? 1 : 0, Scale.PAGES,
      GIN),
  POSTING_PAGES(p -> p.kind() == IndexPageKind.POSTING_LEAF || p.kind() == IndexPageKind.POSTING_INNER ? 1 : 0,
      Scale.PAGES, GIN),
  PENDING_PAGES(IndexPageKind.PENDING, GIN),
  REVMAP_PAGES(IndexPageKind.REVMAP, BRIN),
  REGULAR_PAGES(IndexPageKind.REGULAR, BRIN),
  // what a GIN build would write again, by page kind
  ENTRY_LEAF_ITEMS(gin(IndexPageKind.ENTRY_LEAF, GinTuples::kept), Scale.ITEMS, GIN),
  ENTRY_LEAF_SPACE(gin(IndexPageKind.ENTRY_LEAF, GinTuples::keptSpace), Scale.BYTES, GIN),
  /** The room a build's entry pages give them ({@link GinTuples#buildRoom}). */
  ENTRY_LEAF_BUILD_ROOM(gin(IndexPageKind.ENTRY_LEAF, GinTuples::buildRoom), Scale.BYTES, GIN),
  ENTRY_INNER_ITEMS(gin(IndexPageKind.ENTRY_INNER, GinTuples::kept), Scale.ITEMS, GIN),
  ENTRY_INNER_SPACE(gin(IndexPageKind.ENTRY_INNER, GinTuples::keptSpace), Scale.BYTES, GIN),
  PENDING_ITEMS(gin(IndexPageKind.PENDING, GinTuples::kept), Scale.ITEMS, GIN),
  POSTING_TREES(gin(IndexPageKind.ENTRY_LEAF, GinTuples::postingTrees), Scale.ITEMS, GIN),
  INLINE_HEAP_POINTERS(gin(IndexPageKind.ENTRY_LEAF, GinTuples::inlineHeapPointers), Scale.ITEMS, GIN),
  INLINE_POSTING_BYTES(gin(IndexPageKind.ENTRY_LEAF, GinTuples::inlinePostingBytes), Scale.BYTES, GIN),
  POSTING_LEAF_SPACE(gin(IndexPageKind.POSTING_LEAF, GinTuples::keptSpace), Scale.BYTES, GIN),
  TREE_ENDS(gin(IndexPageKind.POSTING_LEAF, t -> t.treeEnd() ? 1 : 0), Scale.PAGES, GIN),
  TREE_END_BYTES(gin(IndexPageKind.POSTING_LEAF, t -> t.treeEnd() ? t.keptSpace() : 0), Scale.BYTES, GIN),
  TREE_END_POINTERS(p -> p.kind() == IndexPageKind.POSTING_LEAF && p.build() instanceof GinTuples t && t.treeEnd()
      ? p.heapItems() : 0, Scale.ITEMS, GIN),
  SMALL_TREE_ENDS(gin(IndexPageKind.POSTING_LEAF, t -> t.smallTreeEnd() ? 1 : 0), Scale.PAGES, GIN),
  SMALL_TREE_END_BYTES(gin(IndexPageKind.POSTING_LEAF, t -> t.smallTreeEnd() ? t.keptSpace() : 0), Scale.BYTES,
      GIN),
  POSTING_INNER_PAGES(IndexPageKind.POSTING_INNER, GIN),
  /** The heap pointers in the posting trees' leaves. */
  POSTING_LEAF_POINTERS(p -> p.kind() == IndexPageKind.POSTING_LEAF ? p.heapItems() : 0, Scale.ITEMS, GIN),
  // pgstatindex's sums over a btree's pages, and what a build writes for its leaves
  /** Inner pages and new ones, as pgstatindex (13-18) counts a new page: internal_pages. */
  INTERNAL_PAGES(p -> p.kind() == IndexPageKind.INNER || p.kind() == IndexPageKind.NEW ? 1 : 0, Scale.PAGES,
      BTREE),
  /** Half-dead pages: empty_pages. */
  HALF_DEAD_PAGES(IndexPageKind.HALF_DEAD, BTREE),
  /**
   * A leaf's free space: the numerator of 100 - avg_leaf_density, whose denominator is the
   * leaves' max_avail, {@link BtreePage#MAX_AVAIL} a leaf.
   */
  LEAF_FREE_SPACE(p -> p.kind() == IndexPageKind.LEAF ? p.freeSpace() : 0, Scale.BYTES, BTREE),
  /** Leaves whose right sibling is at a lower block: the numerator of leaf_fragmentation. */
  FRAGMENTS(p -> p.fragment() ? 1 : 0, Scale.PAGES, BTREE),
  /** The bytes a build without deduplication writes for a leaf's live entries. */
  LEAF_BUILD_BYTES(btreeLeaf(BtreeLeafEntries.Bytes::plain), Scale.LEAF, BTREE),
  /** The bytes a deduplicating build writes for them. */
  LEAF_DEDUPLICATED_BUILD_BYTES(btreeLeaf(BtreeLeafEntries.Bytes::deduplicated), Scale.LEAF, BTREE),
  /** The room of build leaves a leaf's live entries take without deduplication, in max_avail bytes a leaf. */
  LEAF_BUILD_ROOM(btreeLeaf(BtreeLeafEntries.Bytes::plainRoom), Scale.LEAF, BTREE),
  /** That with equal keys merged. */
  LEAF_DEDUPLICATED_BUILD_ROOM(btreeLeaf(BtreeLeafEntries.Bytes::deduplicatedRoom), Scale.LEAF, BTREE),
  /** A leaf's high key, with its line pointer. */
  LEAF_HIGH_KEY_BYTES(btreeLeaf(BtreeLeafEntries.Bytes::highKey), Scale.LEAF, BTREE),
  // the runs of equal keys among a leaf's live entries, by the heap TIDs they hold ({@link BtreeLeafEntries.Runs})
  SINGLE_RUNS(btreeLeaf(b -> b.single().runs()), Scale.ITEMS, BTREE),
  SINGLE_RUN_BYTES(btreeLeaf(b -> b.single().keyBytes()), Scale.LEAF, BTREE),
  FEW_RUNS(btreeLeaf(b -> b.few().runs()), Scale.ITEMS, BTREE),
  FEW_RUN_BYTES(btreeLeaf(b -> b.few().keyBytes()), Scale.LEAF, BTREE),
  FEW_RUN_TIDS(btreeLeaf(b -> b.few().tids()), Scale.ITEMS, BTREE),
  MANY_RUNS(btreeLeaf(b -> b.many().runs()), Scale.ITEMS, BTREE),
  MANY_RUN_BYTES(btreeLeaf(b -> b.many().keyBytes()), Scale.LEAF, BTREE),
  MANY_RUN_TIDS(btreeLeaf(b -> b.many().tids()), Scale.ITEMS, BTREE),
  /** Leaves whose entries could not be decoded, counted at their bytes in use. */
  UNDECODED_LEAVES(btreeLeaf(b -> b.decoded() ? 0 : 1), Scale.PAGES, BTREE);

  /**
   * What one page's value of a measure can be: its guard's one-unit step (one page or item; a
   * hundredth of a page for bytes; a leaf's whole max_avail for a leaf's build) and the most a
   * page holds (one of a page kind; else unbounded).
   */
  private enum Scale {
    PAGES(1, 1),
    ITEMS(1, Double.POSITIVE_INFINITY),
    BYTES(PageHeader.BLCKSZ / 100.0, Double.POSITIVE_INFINITY),
    LEAF(BtreePage.MAX_AVAIL, Double.POSITIVE_INFINITY);

    final double unit;
    final double mostPerPage;

    Scale(double unit, double mostPerPage) {
      this.unit = unit;
      this.mostPerPage = mostPerPage;
    }
  }

  private final ToIntFunction<IndexPageStats> value;
  private final Scale scale;
  private final Set<IndexAccessMethod> methods;
  /** The kind of page the measure counts, or null for any other measure. */
  private final IndexPageKind counted;

  IndexMeasure(ToIntFunction<IndexPageStats> value, Scale scale, IndexAccessMethod... methods) {
    this(value, scale, null, methods);
  }

  /** The pages of kind {@code counted}. */
  IndexMeasure(IndexPageKind counted, IndexAccessMethod... methods) {
    this(p -> p.kind() == counted ? 1 : 0, Scale.PAGES, counted, methods);
  }

  private IndexMeasure(ToIntFunction<IndexPageStats> value, Scale scale, IndexPageKind counted,
      IndexAccessMethod... methods) {
    this.value = value;
    this.scale = scale;
    this.counted = counted;
    this.methods = Set.of(methods);
  }

  /** The measures of access method {@code am}, in order. */
  public static List<IndexMeasure> of(IndexAccessMethod am) {
    return Arrays.stream(values()).filter(m -> m.methods.contains(am)).toList();
  }

  private static ToIntFunction<IndexPageStats> gin(IndexPageKind kind, ToIntFunction<GinTuples> value) {
    return p -> p.kind() == kind && p.build() instanceof GinTuples t ? value.applyAsInt(t) : 0;
  }

  private static ToIntFunction<IndexPageStats> btreeLeaf(ToIntFunction<BtreeLeafEntries.Bytes> value) {
    return p -> p.build() instanceof BtreeLeafEntries.Bytes b ? value.applyAsInt(b) : 0;
  }

  /** This quantity on one page. */
  public int of(IndexPageStats page) {
    return value.applyAsInt(page);
  }

  /** The estimator's guard step: one unit of the measure. */
  public double unit() {
    return scale.unit;
  }

  /** Whether the measure counts pages of a kind: 0 or 1 on each page. */
  boolean countsPages() {
    return scale == Scale.PAGES;
  }

  /** Whether the measure counts the pages of one kind, and that kind is one of {@code kinds}. */
  public boolean countsPagesOf(Set<IndexPageKind> kinds) {
    return counted != null && kinds.contains(counted);
  }

  /** The most one page can hold. */
  public double mostPerPage() {
    return scale.mostPerPage;
  }
}
