package io.pgbloat.report;

import static io.pgbloat.report.Column.bool;
import static io.pgbloat.report.Column.integer;
import static io.pgbloat.report.Column.text;

import io.pgbloat.figures.IndexPageEstimates;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexMetapage;
import io.pgbloat.page.PageHeader;
import io.pgbloat.rows.IndexReport;
import io.pgbloat.stats.Estimate;
import io.pgbloat.stats.IndexMeasure;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The columns of the index report: the index's identity and access method, pgstatindex's ten
 * columns under its names for btree, then the other methods' figures (pgstattuple's and
 * pgstathashindex's for hash, pgstattuple's for GiST, pgstatginindex's and pages by kind for
 * GIN, pages by kind and tuple states for SP-GiST and BRIN) and what a REINDEX would give
 * back, then each estimated figure's
 * standard error and 95 % interval. A figure an index's method does not have is empty.
 */
public final class IndexColumns {
  private IndexColumns() {}

  /**
   * The estimated figures, each of one index or null where its method has none; percentages
   * print as pgstatindex prints them ("%.2f", NaN).
   */
  private static final List<Figure<IndexReport>> FIGURES = List.of(
      // btree's internal pages count its new ones, as pgstatindex does
      new Figure<>("internal_pages", false, r -> method(r) == IndexAccessMethod.BTREE
          ? r.pages().total(IndexMeasure.INTERNAL_PAGES)
          : pageKind(r, IndexMeasure.INNER_PAGES, IndexAccessMethod.GIST, IndexAccessMethod.SPGIST)),
      new Figure<>("leaf_pages", false, pageKind(IndexMeasure.LEAF_PAGES, IndexAccessMethod.BTREE, IndexAccessMethod.GIST,
          IndexAccessMethod.SPGIST)),
      new Figure<>("empty_pages", false, pageKind(IndexMeasure.HALF_DEAD_PAGES, IndexAccessMethod.BTREE)),
      new Figure<>("deleted_pages", false, pageKind(IndexMeasure.DELETED_PAGES, IndexAccessMethod.BTREE,
          IndexAccessMethod.GIST, IndexAccessMethod.GIN)),
      new Figure<>("avg_leaf_density", true, btree(IndexPageEstimates::avgLeafDensity)),
      new Figure<>("leaf_fragmentation", true, btree(IndexPageEstimates::leafFragmentation)),
      // pgstattuple() on a hash or GiST index (blocks 1 on, as it reads them); for GIN, SP-GiST
      // and BRIN the index tuples in use, SP-GiST's dead ones, and free_space as pd_upper - pd_lower
      new Figure<>("tuple_count", false, tuples(IndexMeasure.LIVE_ITEMS)),
      new Figure<>("tuple_len", false, tuples(IndexMeasure.LIVE_ITEM_BYTES)),
      new Figure<>("dead_tuple_count", false, tuples(IndexMeasure.DEAD_ITEMS)),
      new Figure<>("dead_tuple_len", false, tuples(IndexMeasure.DEAD_ITEM_BYTES)),
      new Figure<>("free_space", false, r -> !hasTuples(r) ? null
          : pgstattupleReads(r) ? r.pages().afterFirst(IndexMeasure.FREE_SPACE) : r.pages().total(IndexMeasure.GAP)),
      // pgstathashindex()
      new Figure<>("bucket_pages", false, hash(IndexMeasure.BUCKET_PAGES)),
      new Figure<>("overflow_pages", false, hash(IndexMeasure.OVERFLOW_PAGES)),
      new Figure<>("bitmap_pages", false, hash(IndexMeasure.BITMAP_PAGES)),
      new Figure<>("unused_pages", false, r -> method(r) != IndexAccessMethod.HASH ? null
          : r.pages().hashUnusedPages()),
      new Figure<>("live_items", false, hash(IndexMeasure.LIVE_ITEMS)),
      new Figure<>("dead_items", false, hash(IndexMeasure.DEAD_ITEMS)),
      new Figure<>("free_percent", true, r -> method(r) != IndexAccessMethod.HASH ? null : r.pages().hashFreePercent()),
      // GIN pages by kind, and the heap pointers in its posting lists
      new Figure<>("entry_pages", false, pageKind(IndexMeasure.ENTRY_PAGES, IndexAccessMethod.GIN)),
      new Figure<>("posting_pages", false, pageKind(IndexMeasure.POSTING_PAGES, IndexAccessMethod.GIN)),
      new Figure<>("pending_list_pages", false, pageKind(IndexMeasure.PENDING_PAGES, IndexAccessMethod.GIN)),
      new Figure<>("posting_items", false, pageKind(IndexMeasure.HEAP_ITEMS, IndexAccessMethod.GIN)),
      // SP-GiST tuple states
      new Figure<>("redirect_tuples", false, pageKind(IndexMeasure.REDIRECTS, IndexAccessMethod.SPGIST)),
      new Figure<>("placeholder_tuples", false, pageKind(IndexMeasure.PLACEHOLDERS, IndexAccessMethod.SPGIST)),
      // BRIN pages by kind and the ranges its range map summarizes
      new Figure<>("revmap_pages", false, pageKind(IndexMeasure.REVMAP_PAGES, IndexAccessMethod.BRIN)),
      new Figure<>("regular_pages", false, pageKind(IndexMeasure.REGULAR_PAGES, IndexAccessMethod.BRIN)),
      new Figure<>("summarized_ranges", false, pageKind(IndexMeasure.HEAP_ITEMS, IndexAccessMethod.BRIN)),
      // what a REINDEX would give back (BtreeRebuild, HashRebuild, GinRebuild, BrinRebuild)
      new Figure<>("reclaimable_bytes", false, IndexReport::reclaimableBytes));

  /** The figures pgstatindex gives, btree's only. */
  private static final List<String> BTREE_FIGURES = List.of("internal_pages", "leaf_pages", "empty_pages",
      "deleted_pages", "avg_leaf_density", "leaf_fragmentation");

  public static final List<Column<IndexReport>> ALL = columns();

  /** The columns that hold bytes, which the terminal and HTML tables show as sizes. */
  static final Set<String> BYTES = Set.of("index_size", "free_space", "reclaimable_bytes");

  private static List<Column<IndexReport>> columns() {
    List<Column<IndexReport>> c = new ArrayList<>(RelationColumns.naming(IndexReport::relation));
    c.addAll(List.of(
        text("relpath", r -> r.relation().relpath()),
        integer("version", IndexColumns::version),
        integer("tree_level", r -> btreeMetapage(r) == null ? null : Long.toString(btreeMetapage(r).treeLevel())),
        integer("index_size", r -> Long.toString(r.blocks() * PageHeader.BLCKSZ)),
        integer("root_block_no", r -> btreeMetapage(r) == null ? null : Long.toString(btreeMetapage(r).rootBlockNo()))));
    List<Figure<IndexReport>> btree = FIGURES.stream().filter(f -> BTREE_FIGURES.contains(f.name())).toList();
    List<Figure<IndexReport>> others = FIGURES.stream().filter(f -> !BTREE_FIGURES.contains(f.name())).toList();
    btree.forEach(f -> c.add(rolledUp(f).value()));
    c.add(integer("bad_pages", r -> Long.toString(r.badPages())));
    btree.forEach(f -> c.addAll(rolledUp(f).bounds()));
    c.add(integer("sampled_blocks", IndexColumns::sampledBlocks));
    c.add(integer("sample_seed", r -> r.sampleSeed() == null ? null : Long.toString(r.sampleSeed())));
    c.add(text("relpersistence", r -> String.valueOf(r.relation().persistence())));
    // the access method, whether its pages were read, and the figures of the methods other than btree
    c.add(text("am", r -> r.relation().am()));
    c.add(integer("fillfactor", r -> Long.toString(r.relation().fillfactor())));
    c.add(bool("analysed", r -> Boolean.toString(r.isAnalysed())));
    // a partitioned index's rollup (relkind 'I'): how many leaf indexes it sums
    c.add(integer("partitions", r -> r.isRollup() ? Integer.toString(r.partitions().size()) : null));
    // what to do about it (advice/): none, reindex or sample more, and why
    c.add(text("action", r -> r.advice().action().label()));
    c.add(text("action_reason", r -> r.advice().reason()));
    c.add(integer("pending_pages", r -> gin(r) == null ? null : Long.toString(gin(r).pendingPages())));
    c.add(integer("pending_tuples", r -> gin(r) == null ? null : Long.toString(gin(r).pendingTuples())));
    others.forEach(f -> c.add(rolledUp(f).value()));
    others.forEach(f -> c.addAll(rolledUp(f).bounds()));
    return List.copyOf(c);
  }

  /** {@code f} as the report writes it: see {@link #estimate}. */
  private static Figure<IndexReport> rolledUp(Figure<IndexReport> f) {
    return new Figure<>(f.name(), f.percent(), r -> estimate(f, r));
  }

  /**
   * {@code f} of one row; a partitioned index's counts and bytes are its leaves' summed (their
   * samples independent, so variances add), its ratios left empty.
   */
  private static Estimate estimate(Figure<IndexReport> f, IndexReport r) {
    if (!r.isRollup()) {
      return f.estimate().apply(r);
    }
    List<Estimate> leaves = r.partitions().stream().map(f.estimate()).filter(java.util.Objects::nonNull).toList();
    return f.percent() || leaves.isEmpty() ? null : Estimate.sum(leaves);
  }

  private static IndexAccessMethod method(IndexReport r) {
    return r.pages() == null ? null : IndexAccessMethod.named(r.relation().am());
  }

  /** Whether pgstattuple reads this method's pages (hash, GiST), so its figures are pgstattuple's. */
  private static boolean pgstattupleReads(IndexReport r) {
    return method(r) == IndexAccessMethod.HASH || method(r) == IndexAccessMethod.GIST;
  }

  private static Function<IndexReport, Estimate> btree(Function<IndexPageEstimates, Estimate> figure) {
    return r -> method(r) == IndexAccessMethod.BTREE ? figure.apply(r.pages()) : null;
  }

  /** Whether the row has the tuple figures: an index whose pages were read, btree's excepted (pgstatindex's). */
  private static boolean hasTuples(IndexReport r) {
    return method(r) != null && method(r) != IndexAccessMethod.BTREE;
  }

  private static Function<IndexReport, Estimate> tuples(IndexMeasure m) {
    return r -> !hasTuples(r) ? null : pgstattupleReads(r) ? r.pages().afterFirst(m) : r.pages().total(m);
  }

  private static Function<IndexReport, Estimate> hash(IndexMeasure m) {
    return r -> method(r) == IndexAccessMethod.HASH ? r.pages().afterFirst(m) : null;
  }

  private static Function<IndexReport, Estimate> pageKind(IndexMeasure m, IndexAccessMethod... methods) {
    return r -> pageKind(r, m, methods);
  }

  private static Estimate pageKind(IndexReport r, IndexMeasure m, IndexAccessMethod... methods) {
    IndexAccessMethod method = method(r);
    return method != null && java.util.Arrays.asList(methods).contains(method) ? r.pages().total(m) : null;
  }

  private static IndexMetapage gin(IndexReport r) {
    return method(r) == IndexAccessMethod.GIN ? r.pages().metapage() : null;
  }

  /** A btree's metapage figures, all 0 where its metapage was not read or is bad; null for another method. */
  private static IndexMetapage btreeMetapage(IndexReport r) {
    if (method(r) != IndexAccessMethod.BTREE || r.pages() == null) {
      return null;
    }
    return r.pages().metapage() != null ? r.pages().metapage() : IndexMetapage.BTREE_UNREAD;
  }

  /** pgstatindex's, pgstathashindex's or pgstatginindex's version, from the metapage. */
  private static String version(IndexReport r) {
    IndexMetapage metapage = method(r) == IndexAccessMethod.BTREE ? btreeMetapage(r)
        : r.pages() == null ? null : r.pages().metapage();
    return metapage == null ? null : Long.toString(metapage.version());
  }

  /** Blocks read, good and bad, metapage included. */
  private static String sampledBlocks(IndexReport r) {
    if (r.isRollup()) {
      return Long.toString(r.partitions().stream().mapToLong(p -> Long.parseLong(sampledBlocks(p))).sum());
    }
    if (r.pages() != null) {
      return Long.toString(r.pages().sampledPages() + r.pages().badPages() + (r.pages().firstBlockRead() ? 1 : 0));
    }
    return "0";
  }

  /** The column named {@code name}. */
  public static Column<IndexReport> named(String name) {
    return Column.named(ALL, name).orElseThrow(() -> new IllegalArgumentException("no column " + name));
  }

}
