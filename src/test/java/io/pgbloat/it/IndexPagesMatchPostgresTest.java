package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.catalog.DataDirectory;
import io.pgbloat.figures.IndexPageEstimates;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.io.store.HadoopFileStore;
import io.pgbloat.page.BrinPage;
import io.pgbloat.page.GinPage;
import io.pgbloat.page.GistPage;
import io.pgbloat.page.HashPage;
import io.pgbloat.page.HashPageCounts;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexPageCounter;
import io.pgbloat.page.IndexPageKind;
import io.pgbloat.page.IndexPageStats;
import io.pgbloat.page.PageHeader;
import io.pgbloat.page.PageRules;
import io.pgbloat.page.SpGistPage;
import io.pgbloat.sample.IndexWholeBlocks;
import io.pgbloat.stats.Estimate;
import io.pgbloat.stats.IndexMeasure;
import io.pgbloat.stats.IndexPageSums;
import io.pgbloat.testing.Csv;
import io.pgbloat.testing.PostgresCluster;
import io.pgbloat.testing.ToolRun;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The page counters of hash, GiST, GIN, SP-GiST and BRIN on indexes a real server of every
 * version 13-18 built, churned (deletes, VACUUM, a GIN pending list) and stopped: read offline,
 * page by page, they give what that server's own functions gave before it stopped —
 * pgstathashindex() and pgstattuple() on the hash index, pgstattuple() on the GiST index,
 * pgstatginindex() — and, where PostgreSQL has no function, what pageinspect read of the same
 * pages: pd_upper − pd_lower of every page, GIN page kinds and posting-list items, BRIN page
 * types, tuples and summarized ranges, SP-GiST's redirect and placeholder counts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ParameterizedClass(name = "PostgreSQL {0}")
@MethodSource("io.pgbloat.testing.PostgresInstallation#majors")
class IndexPagesMatchPostgresTest {
  private static final String SCENARIO = """
      CREATE EXTENSION pgstattuple;
      CREATE EXTENSION pageinspect;
      CREATE TABLE t (id int, p point, tags int[]);
      INSERT INTO t SELECT g, point(g % 997, g / 997), ARRAY[g % 50, g % 7, g % 1000]
        FROM generate_series(1, 40000) g;
      CREATE INDEX t_hash ON t USING hash (id);
      CREATE INDEX t_hash_chains ON t USING hash ((id % 50));
      CREATE INDEX t_gist ON t USING gist (p);
      CREATE INDEX t_gin ON t USING gin (tags) WITH (fastupdate = off);
      CREATE INDEX t_gin_pending ON t USING gin (tags) WITH (fastupdate = on);
      CREATE INDEX t_spgist ON t USING spgist (p);
      CREATE INDEX t_brin ON t USING brin (id) WITH (pages_per_range = 4);
      DELETE FROM t WHERE id % 3 = 0 OR id BETWEEN 10000 AND 14000;
      VACUUM t;
      INSERT INTO t SELECT g, point(g % 997, g / 997), ARRAY[g % 50] FROM generate_series(40001, 41000) g;
      """;
  private static final List<String> INDEXES = List.of("t_hash", "t_gist", "t_gin", "t_gin_pending", "t_spgist", "t_brin");
  /** A hash index of 50 keys: long overflow chains, some of whose pages the VACUUM freed. */
  private static final String HASH_CHAINS = "t_hash_chains";

  @Parameter
  int major;
  private PostgresCluster pg;
  private final Map<String, Map<String, String>> pgstattuple = new HashMap<>();
  private Map<String, String> pgstathashindex;
  private Map<String, String> pgstathashindexOfChains;
  private Map<String, String> pgstatginindex;
  private long rows;
  private final Map<String, List<Map<String, String>>> pageFacts = new HashMap<>();
  private final Map<String, List<IndexPageStats>> offline = new HashMap<>();
  private final Map<String, byte[]> metapages = new HashMap<>();
  private final Map<String, Map<String, String>> reported = new HashMap<>();
  private final Map<String, Long> sizes = new HashMap<>();
  private final Map<String, HashPageCounts> hashPageCounts = new HashMap<>();
  private io.pgbloat.io.read.BlockList spgistReadWhole;

  @BeforeParameterizedClassInvocation
  void buildIndexesTakeTruthReadOffline() throws IOException {
    PostgresCluster.assumeServer(major);
    pgstattuple.clear();
    pageFacts.clear();
    offline.clear();
    metapages.clear();
    sizes.clear();
    hashPageCounts.clear();
    pg = PostgresCluster.builder().version(major).dataChecksums(true).init();
    pg.start();
    pg.psql("postgres", SCENARIO);
    for (String index : List.of("t_hash", "t_gist")) {
      pgstattuple.put(index, pg.queryCsv("postgres", "SELECT * FROM pgstattuple('" + index + "')").get(0));
    }
    pgstathashindex = pg.queryCsv("postgres", "SELECT * FROM pgstathashindex('t_hash')").get(0);
    pgstathashindexOfChains = pg.queryCsv("postgres", "SELECT * FROM pgstathashindex('" + HASH_CHAINS + "')").get(0);
    pgstatginindex = pg.queryCsv("postgres", "SELECT * FROM pgstatginindex('t_gin_pending')").get(0);
    rows = Long.parseLong(pg.queryCsv("postgres", "SELECT count(*) AS n FROM t").get(0).get("n"));
    for (String index : INDEXES) {
      pageFacts.put(index, pg.queryCsv("postgres", pageFactsQuery(index)));
    }
    List<String> read = new ArrayList<>(INDEXES);
    read.add(HASH_CHAINS);
    Map<String, String> paths = new HashMap<>();
    for (String index : read) {
      paths.put(index, pg.queryCsv("postgres", "SELECT pg_relation_filepath('" + index + "') AS p").get(0).get("p"));
    }
    for (String index : INDEXES) {
      sizes.put(index, Long.parseLong(pg.queryCsv("postgres", "SELECT pg_relation_size('" + index + "') AS s").get(0)
          .get("s")));
    }
    pg.stop();

    reported.clear();
    java.nio.file.Path indexCsv = pg.baseDir().resolve("indexes-" + major + ".csv");
    ToolRun run = ToolRun.of("analyze", "--data-dir", pg.dataDir().toString(), "--database", "postgres", "--table",
        "public.*", "--full-scan", "--indexes", "--format", "csv", "--output", "/dev/null", "--index-output",
        indexCsv.toString(), "--master", "local[2]");
    assertEquals(0, run.status(), run.describe());
    for (Map<String, String> row : Csv.parseWithHeader(java.nio.file.Files.readString(indexCsv))) {
      reported.put(row.get("relname"), row);
    }

    try (HadoopFileStore files = HadoopFileStore.open(pg.dataDir().toString(), new Configuration())) {
      DataDirectory dir = DataDirectory.open(files);
      PageRules rules = dir.pageRules();
      Map<String, IndexPageCounter> counters = Map.of("t_hash", new HashPage(rules), "t_gist", new GistPage(rules),
          "t_gin", new GinPage(rules), "t_gin_pending", new GinPage(rules), "t_spgist", new SpGistPage(rules),
          "t_brin", new BrinPage(rules), HASH_CHAINS, new HashPage(rules));
      for (String index : read) {
        SegmentedFile file = SegmentedFile.measure(files, paths.get(index), dir.control().segmentBlocks()).file();
        List<IndexPageStats> pages = new ArrayList<>();
        byte[] page = new byte[PageHeader.BLCKSZ];
        for (long b = 0; b < file.blocks(); b++) {
          file.readBlocks(files, b, 1, page);
          if (b == 0) {
            metapages.put(index, page.clone());
          }
          pages.add(counters.get(index).count(page, b));
        }
        offline.put(index, pages);
        if (index.equals("t_spgist")) {
          spgistReadWhole = IndexWholeBlocks.of(files, file, IndexAccessMethod.SPGIST, rules, new ArrayList<>()).blocks();
        }
        if (index.startsWith("t_hash")) {
          List<String> problems = new ArrayList<>();
          hashPageCounts.put(index, IndexWholeBlocks.of(files, file, IndexAccessMethod.HASH, rules, problems)
              .hashPageCounts());
          assertEquals(List.of(), problems, index);
        }
      }
    }
  }

  /** Per page: page_header's lower and upper, and what the index's own pageinspect function says. */
  private static String pageFactsQuery(String index) {
    String perKind = switch (index) {
      case "t_gin", "t_gin_pending" -> """
          , (gin_page_opaque_info(get_raw_page('%1$s', b))).flags::text AS gin_flags,
          CASE WHEN (gin_page_opaque_info(get_raw_page('%1$s', b))).flags = '{data,leaf,compressed}'
               THEN (SELECT sum(cardinality(tids)) FROM gin_leafpage_items(get_raw_page('%1$s', b))) END AS gin_items""";
      case "t_brin" -> """
          , brin_page_type(get_raw_page('%1$s', b)) AS brin_type,
          CASE WHEN brin_page_type(get_raw_page('%1$s', b)) = 'regular'
               THEN (SELECT count(DISTINCT itemoffset) FROM brin_page_items(get_raw_page('%1$s', b), '%1$s')) END AS brin_tuples,
          CASE WHEN brin_page_type(get_raw_page('%1$s', b)) = 'revmap'
               THEN (SELECT count(*) FROM brin_revmap_data(get_raw_page('%1$s', b)) WHERE pages <> '(0,0)') END AS brin_ranges""";
      case "t_spgist" -> """
          , get_byte(get_raw_page('%1$s', b), 8186) + 256 * get_byte(get_raw_page('%1$s', b), 8187) AS n_redirection,
          get_byte(get_raw_page('%1$s', b), 8188) + 256 * get_byte(get_raw_page('%1$s', b), 8189) AS n_placeholder""";
      default -> "";
    };
    return ("SELECT b, h.lower, h.upper" + perKind + " FROM generate_series(0, (pg_relation_size('%1$s') / 8192 - 1)::int) b,"
        + " LATERAL page_header(get_raw_page('%1$s', b)) h ORDER BY b").formatted(index);
  }

  @AfterParameterizedClassInvocation
  void close() {
    if (pg != null) {
      pg.close();
    }
  }

  private List<IndexPageStats> pages(String index) {
    return offline.get(index);
  }

  /** pgstattuple()'s reading of an index: blocks 1 on, as pgstat_index does. */
  private static Map<String, Long> pgstattupleOf(List<IndexPageStats> pages) {
    Map<String, Long> sums = new HashMap<>();
    sums.put("table_len", (long) pages.size() * PageHeader.BLCKSZ);
    for (IndexPageStats p : pages.subList(1, pages.size())) {
      sums.merge("tuple_count", (long) p.liveItems(), Long::sum);
      sums.merge("tuple_len", (long) p.liveItemBytes(), Long::sum);
      sums.merge("dead_tuple_count", (long) p.deadItems(), Long::sum);
      sums.merge("dead_tuple_len", (long) p.deadItemBytes(), Long::sum);
      sums.merge("free_space", (long) p.freeSpace(), Long::sum);
    }
    return sums;
  }

  /** The index report of a full scan: every index, its method, and the functions' figures cell by cell. */
  @Test
  void theIndexReportCarriesEveryMethodsFigures() {
    for (String index : INDEXES) {
      Map<String, String> row = reported.get(index);
      assertTrue(row != null, index + " is reported");
      assertEquals("true", row.get("analysed"), index);
      assertEquals(Long.toString(sizes.get(index)), row.get("index_size"), index);
      assertEquals("0", row.get("bad_pages"), index);
    }
    assertEquals(Map.of("t_hash", "hash", "t_gist", "gist", "t_gin", "gin", "t_gin_pending", "gin", "t_spgist", "spgist",
        "t_brin", "brin"), Map.of("t_hash", reported.get("t_hash").get("am"), "t_gist", reported.get("t_gist").get("am"),
        "t_gin", reported.get("t_gin").get("am"), "t_gin_pending", reported.get("t_gin_pending").get("am"),
        "t_spgist", reported.get("t_spgist").get("am"), "t_brin", reported.get("t_brin").get("am")));
    for (String index : List.of("t_hash", "t_gist")) {
      for (String column : List.of("tuple_count", "tuple_len", "dead_tuple_count", "dead_tuple_len", "free_space")) {
        assertEquals(pgstattuple.get(index).get(column), reported.get(index).get(column), index + " " + column);
      }
    }
    Map<String, String> hash = reported.get("t_hash");
    for (String column : List.of("version", "bucket_pages", "overflow_pages", "bitmap_pages", "unused_pages",
        "live_items", "dead_items")) {
      assertEquals(pgstathashindex.get(column), hash.get(column), "t_hash " + column);
    }
    assertEquals(String.format(java.util.Locale.ROOT, "%.2f", Double.parseDouble(pgstathashindex.get("free_percent"))),
        hash.get("free_percent"));
    Map<String, String> gin = reported.get("t_gin_pending");
    for (String column : List.of("version", "pending_pages", "pending_tuples")) {
      assertEquals(pgstatginindex.get(column), gin.get(column), "t_gin_pending " + column);
    }
    long gaps = pages("t_brin").stream().mapToLong(IndexPageStats::gap).sum();
    assertEquals(Long.toString(gaps), reported.get("t_brin").get("free_space"), "BRIN free_space: pd_upper - pd_lower");
    assertEquals("", reported.get("t_gin").get("avg_leaf_density"), "btree's figures are empty for GIN");
  }

  /**
   * Sampled: 300 simple random samples of 20 of the blocks after block 0 (fixed seeds), with
   * block 0 and the pages a run reads whole (GIN's pending list, BRIN's range map), the
   * estimates built as a run builds them; their 95 % intervals hold the full count of every
   * index's live items, free bytes and heap items at least 85 % of the time.
   */
  @Test
  void sampledEstimatesCoverTheFullCount() {
    java.util.Random random = new java.util.Random(17);
    for (String index : INDEXES) {
      List<IndexPageStats> all = pages(index);
      if (all.size() < 30) {
        continue; // too small to sample
      }
      IndexPageSums full = new IndexPageSums();
      all.forEach(page -> full.add(page, false));
      Map<IndexMeasure, Integer> covered = new EnumMap<>(IndexMeasure.class);
      int rounds = 300;
      for (int round = 0; round < rounds; round++) {
        IndexPageSums sample = new IndexPageSums().add(all.get(0), false);
        List<Integer> blocks = new ArrayList<>();
        for (int b = 1; b < all.size(); b++) {
          IndexPageKind kind = all.get(b).kind();
          if (kind == IndexPageKind.PENDING || kind == IndexPageKind.REVMAP || kind == IndexPageKind.BITMAP) {
            sample.add(all.get(b), true); // read whole by the planner (IndexWholeBlocks)
          } else {
            blocks.add(b);
          }
        }
        java.util.Collections.shuffle(blocks, random);
        blocks.subList(0, Math.min(20, blocks.size())).forEach(b -> sample.add(all.get(b), false));
        IndexPageEstimates e = IndexPageEstimates.of(IndexAccessMethod.GIST, all.size(), sample, null, 90, 0.95); // the method chooses only the rebuild model, not read here
        for (IndexMeasure m : List.of(IndexMeasure.LIVE_ITEMS, IndexMeasure.GAP, IndexMeasure.HEAP_ITEMS)) {
          Estimate est = e.afterFirst(m);
          long truth = full.sum(m) + full.whole(m);
          if (est.low() <= truth && truth <= est.high()) {
            covered.merge(m, 1, Integer::sum);
          }
        }
      }
      for (IndexMeasure m : List.of(IndexMeasure.LIVE_ITEMS, IndexMeasure.GAP, IndexMeasure.HEAP_ITEMS)) {
        double coverage = covered.getOrDefault(m, 0) / (double) rounds;
        System.out.printf("PostgreSQL %d %s %s: 95 %% interval held the full count in %d of %d samples%n", major, index,
            m, covered.getOrDefault(m, 0), rounds);
        assertTrue(coverage >= 0.85, index + " " + m + ": the interval held the full count in " + coverage);
      }
    }
  }

  /** The scenario made the states each counter must get right. */
  @Test
  void theIndexesHaveTheStatesTheyAreFor() {
    Map<String, String> missing = new HashMap<>();
    expect(missing, "t_gist", IndexPageKind.DELETED);
    expect(missing, "t_gist", IndexPageKind.INNER);
    expect(missing, "t_hash", IndexPageKind.BUCKET);
    expect(missing, "t_hash", IndexPageKind.BITMAP);
    expect(missing, HASH_CHAINS, IndexPageKind.OVERFLOW);
    expect(missing, HASH_CHAINS, IndexPageKind.UNUSED);
    expect(missing, "t_gin", IndexPageKind.POSTING_LEAF);
    expect(missing, "t_gin", IndexPageKind.ENTRY_LEAF);
    expect(missing, "t_gin_pending", IndexPageKind.PENDING);
    expect(missing, "t_spgist", IndexPageKind.LEAF);
    expect(missing, "t_spgist", IndexPageKind.INNER);
    expect(missing, "t_brin", IndexPageKind.REVMAP);
    expect(missing, "t_brin", IndexPageKind.REGULAR);
    assertEquals(Map.of(), missing);
    assertTrue(pages("t_spgist").stream().mapToInt(p -> p.redirects() + p.placeholders()).sum() > 0,
        "VACUUM left SP-GiST redirects or placeholders");
    assertTrue(pages("t_gin").stream().filter(p -> p.kind() == IndexPageKind.ENTRY_LEAF).mapToInt(IndexPageStats::heapItems)
        .sum() > 0, "some GIN keys keep their heap pointers inline");
  }

  private void expect(Map<String, String> missing, String index, IndexPageKind kind) {
    if (!kinds(pages(index)).containsKey(kind)) {
      missing.put(index + " " + kind, "none among " + kinds(pages(index)));
    }
  }

  @Test
  void noPageIsBad() {
    for (String index : INDEXES) {
      for (IndexPageStats p : pages(index)) {
        assertTrue(!p.isBad(), index + " block " + p.block() + ": " + p.problem());
      }
    }
  }

  @Test
  void pgstattupleOnTheHashAndGistIndexes() {
    for (String index : List.of("t_hash", "t_gist")) {
      Map<String, Long> offlineSums = pgstattupleOf(pages(index));
      for (Map.Entry<String, Long> e : offlineSums.entrySet()) {
        assertEquals(pgstattuple.get(index).get(e.getKey()), Long.toString(e.getValue()), index + " " + e.getKey());
      }
    }
  }

  /**
   * The four page counts a sampled run takes from the metapage and the bitmap pages alone are
   * pgstathashindex's, on an index of unique keys and on one of long chains the VACUUM thinned
   * (freed overflow pages, whose bits it cleared).
   */
  @Test
  void hashPageCountsFromTheMetapageAndTheBitmapPages() {
    for (Map.Entry<String, Map<String, String>> truth : Map.of("t_hash", pgstathashindex, HASH_CHAINS,
        pgstathashindexOfChains).entrySet()) {
      HashPageCounts counts = hashPageCounts.get(truth.getKey());
      Map<String, String> expected = truth.getValue();
      assertEquals(List.of(expected.get("bucket_pages"), expected.get("overflow_pages"), expected.get("bitmap_pages"),
          expected.get("unused_pages")), counts == null ? null : List.of(Long.toString(counts.bucketPages()),
          Long.toString(counts.overflowPages()), Long.toString(counts.bitmapPages()),
          Long.toString(counts.unusedPages())), truth.getKey());
    }
  }

  /** A sampled run reads an SP-GiST index's two roots whole: the root, grown into an inner page, and the nulls' leaf. */
  @Test
  void spgistRootsAreReadWhole() {
    List<Long> blocks = new ArrayList<>();
    spgistReadWhole.forEach(blocks::add);
    assertEquals(List.of(1L, 2L), blocks);
    assertEquals(List.of(IndexPageKind.INNER, IndexPageKind.LEAF),
        List.of(pages("t_spgist").get(1).kind(), pages("t_spgist").get(2).kind()));
  }

  @Test
  void pgstathashindex() {
    List<IndexPageStats> pages = pages("t_hash");
    int[] meta = HashPage.metapage(metapages.get("t_hash"));
    Map<IndexPageKind, Long> kinds = kinds(pages);
    long unused = kinds.getOrDefault(IndexPageKind.UNUSED, 0L) + kinds.getOrDefault(IndexPageKind.NEW, 0L);
    long bitmap = kinds.getOrDefault(IndexPageKind.BITMAP, 0L);
    long live = 0, dead = 0, free = 0;
    for (IndexPageStats p : pages) {
      if (p.kind() == IndexPageKind.BUCKET || p.kind() == IndexPageKind.OVERFLOW) {
        live += p.liveItems();
        dead += p.deadItems();
        free += p.gap();
      }
    }
    free += unused * meta[1];
    long total = (pages.size() - bitmap - 1) * meta[1];
    assertEquals(pgstathashindex.get("version"), Integer.toString(meta[0]));
    assertEquals(pgstathashindex.get("bucket_pages"), Long.toString(kinds.getOrDefault(IndexPageKind.BUCKET, 0L)));
    assertEquals(pgstathashindex.get("overflow_pages"), Long.toString(kinds.getOrDefault(IndexPageKind.OVERFLOW, 0L)));
    assertEquals(pgstathashindex.get("bitmap_pages"), Long.toString(bitmap));
    // the metapage lists the bitmap pages a sampled run reads whole
    assertEquals(pages.stream().filter(p -> p.kind() == IndexPageKind.BITMAP).map(IndexPageStats::block).toList(),
        java.util.Arrays.stream(HashPage.bitmapBlocks(metapages.get("t_hash"))).boxed().toList());
    assertEquals(pgstathashindex.get("unused_pages"), Long.toString(unused));
    assertEquals(pgstathashindex.get("live_items"), Long.toString(live));
    assertEquals(pgstathashindex.get("dead_items"), Long.toString(dead));
    assertEquals(Double.parseDouble(pgstathashindex.get("free_percent")), 100.0 * free / total, 1e-9);
  }

  @Test
  void pgstatginindexAndGinPagesAsPageinspectReadsThem() {
    long[] meta = GinPage.metapage(metapages.get("t_gin_pending"));
    assertEquals(pgstatginindex.get("version"), Long.toString(meta[0]));
    assertEquals(pgstatginindex.get("pending_pages"), Long.toString(meta[1]));
    assertEquals(pgstatginindex.get("pending_tuples"), Long.toString(meta[2]));
    assertTrue(meta[1] > 0, "the fastupdate index has a pending list");
    for (String index : List.of("t_gin", "t_gin_pending")) {
      List<Map<String, String>> facts = pageFacts.get(index);
      long postingItems = 0;
      long expectedItems = 0;
      for (int b = 0; b < facts.size(); b++) {
        IndexPageStats p = pages(index).get(b);
        String flags = facts.get(b).get("gin_flags");
        assertEquals(ginKind(flags, b), p.kind(), index + " block " + b + " flags " + flags);
        if (facts.get(b).get("gin_items") != null && !facts.get(b).get("gin_items").isEmpty()) {
          expectedItems += Long.parseLong(facts.get(b).get("gin_items"));
          postingItems += p.heapItems();
        }
      }
      assertEquals(expectedItems, postingItems, index + ": heap items in compressed posting lists");
      gapsMatch(index);
    }
    assertTrue(kinds(pages("t_gin_pending")).getOrDefault(IndexPageKind.PENDING, 0L) > 0);
  }

  @Test
  void brinPagesAsPageinspectReadsThem() {
    List<Map<String, String>> facts = pageFacts.get("t_brin");
    for (int b = 0; b < facts.size(); b++) {
      IndexPageStats p = pages("t_brin").get(b);
      Map<String, String> f = facts.get(b);
      assertEquals(Map.of("meta", IndexPageKind.META, "revmap", IndexPageKind.REVMAP, "regular", IndexPageKind.REGULAR)
          .get(f.get("brin_type")), p.kind(), "block " + b);
      if (!f.get("brin_tuples").isEmpty()) {
        assertEquals(f.get("brin_tuples"), Integer.toString(p.liveItems()), "tuples of block " + b);
      }
      if (!f.get("brin_ranges").isEmpty()) {
        assertEquals(f.get("brin_ranges"), Integer.toString(p.heapItems()), "summarized ranges of block " + b);
      }
    }
    gapsMatch("t_brin");
  }

  @Test
  void spgistTupleStatesAndPages() {
    List<Map<String, String>> facts = pageFacts.get("t_spgist");
    long live = 0;
    for (int b = 1; b < facts.size(); b++) {
      IndexPageStats p = pages("t_spgist").get(b);
      assertEquals(facts.get(b).get("n_redirection"), Integer.toString(p.redirects()), "redirects of block " + b);
      assertEquals(facts.get(b).get("n_placeholder"), Integer.toString(p.placeholders()), "placeholders of block " + b);
      if (p.kind() == IndexPageKind.LEAF) {
        live += p.liveItems();
      }
    }
    // after the VACUUM every leaf tuple left live points to a row still there, and every row has one
    assertEquals(rows, live, "live leaf tuples");
    gapsMatch("t_spgist");
    gapsMatch("t_hash");
    gapsMatch("t_gist");
  }

  private void gapsMatch(String index) {
    List<Map<String, String>> facts = pageFacts.get(index);
    for (int b = 0; b < facts.size(); b++) {
      IndexPageStats p = pages(index).get(b);
      int lower = Integer.parseInt(facts.get(b).get("lower"));
      int upper = Integer.parseInt(facts.get(b).get("upper"));
      assertEquals(upper == 0 ? 0 : Math.max(0, upper - lower), p.gap(), index + " block " + b + ": pd_upper - pd_lower");
    }
  }

  private static IndexPageKind ginKind(String flags, int block) {
    if (flags.contains("meta")) {
      return IndexPageKind.META;
    }
    if (flags.contains("deleted")) {
      return IndexPageKind.DELETED;
    }
    if (flags.contains("list")) {
      return IndexPageKind.PENDING;
    }
    boolean leaf = flags.matches(".*\\bleaf\\b.*");
    if (flags.contains("data")) {
      return leaf ? IndexPageKind.POSTING_LEAF : IndexPageKind.POSTING_INNER;
    }
    return leaf ? IndexPageKind.ENTRY_LEAF : IndexPageKind.ENTRY_INNER;
  }

  private static Map<IndexPageKind, Long> kinds(List<IndexPageStats> pages) {
    Map<IndexPageKind, Long> kinds = new EnumMap<>(IndexPageKind.class);
    pages.forEach(p -> kinds.merge(p.kind(), 1L, Long::sum));
    return kinds;
  }
}
