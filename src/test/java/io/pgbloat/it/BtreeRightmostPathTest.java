package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pgbloat.catalog.DataDirectory;
import io.pgbloat.figures.IndexPageEstimates;
import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.io.store.HadoopFileStore;
import io.pgbloat.page.BtreePage;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexPageKind;
import io.pgbloat.page.IndexPageStats;
import io.pgbloat.page.PageHeader;
import io.pgbloat.sample.BlockSampler;
import io.pgbloat.sample.IndexWholeBlocks;
import io.pgbloat.sample.Stratum;
import io.pgbloat.stats.Estimate;
import io.pgbloat.stats.IndexPageSums;
import io.pgbloat.testing.PostgresCluster;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The 95 % interval of a sampled btree's avg_leaf_density holds pgstatindex's figure about 95 %
 * of the time on indexes whose leaves a real server filled alike but for the last: one grown by
 * keys that only rise at fillfactor 52 (each leaf split at half, the last filled near full) and
 * thinned by a DELETE and VACUUM, so that the leaves vary by a few keys and the interval is
 * narrow; two built over a loaded table (the last leaf nearly empty, but the others all alike,
 * which the estimator's guard for a constant sample covers); one of random keys (leaves of all
 * fills, no page apart) to show the rightmost path read whole costs nothing there. Per sampling seed, the
 * blocks a run reads ({@link IndexWholeBlocks} on the index's file, block 0, the seed's sample of
 * blocks 1 to N - 1) are summed and estimated as a run does.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BtreeRightmostPathTest {
  // 366 int4 keys fill a leaf to fillfactor 90, each count leaving a last leaf of 20 keys; at
  // fillfactor 52 a leaf of rising keys splits at 211, the last filling up to 407
  private static final String SCENARIO = """
      CREATE EXTENSION pgstattuple;
      CREATE TABLE bulk_small AS SELECT g AS id FROM generate_series(1, 366 * 40 + 20) g;
      CREATE INDEX bulk_small_id ON bulk_small (id);
      CREATE TABLE bulk_large AS SELECT g AS id FROM generate_series(1, 366 * 150 + 20) g;
      CREATE INDEX bulk_large_id ON bulk_large (id);
      CREATE TABLE rising (id int);
      CREATE INDEX rising_id ON rising (id) WITH (fillfactor = 52);
      INSERT INTO rising SELECT generate_series(1, 211 * 94 + 400);
      SELECT setseed(0.25);
      DELETE FROM rising WHERE random() < 0.4;
      VACUUM rising;
      CREATE TABLE random_keys (id int);
      CREATE INDEX random_keys_id ON random_keys (id);
      INSERT INTO random_keys SELECT (random() * 1e9)::int FROM generate_series(1, 30000);
      """;
  private static final List<String> INDEXES = List.of("bulk_small_id", "bulk_large_id", "rising_id", "random_keys_id");
  /** The index whose last leaf a sample must read to see its figure: the leaves below it vary, by a few keys. */
  private static final String LAST_LEAF_APART = "rising_id";
  static final int SEEDS = 200;
  static final int SAMPLE_BLOCKS = 20;

  private PostgresCluster pg;
  private final Map<String, List<IndexPageStats>> pages = new LinkedHashMap<>();
  private final Map<String, BlockList> whole = new LinkedHashMap<>();
  private final Map<String, List<Long>> nextLinks = new LinkedHashMap<>();
  private final Map<String, Double> pgstatindex = new LinkedHashMap<>();

  @BeforeAll
  void growTheIndexes() throws IOException {
    PostgresCluster.assumeServer();
    pg = PostgresCluster.builder().init();
    pg.start();
    pg.psql("postgres", SCENARIO);
    Map<String, String> paths = new LinkedHashMap<>();
    for (String index : INDEXES) {
      Map<String, String> row = pg.queryCsv("postgres", "SELECT pg_relation_filepath('" + index + "') AS p, "
          + "avg_leaf_density AS d FROM pgstatindex('" + index + "')").get(0);
      paths.put(index, row.get("p"));
      pgstatindex.put(index, Double.parseDouble(row.get("d")));
    }
    pg.stop();
    try (HadoopFileStore store = HadoopFileStore.open(pg.dataDir().toString(), new Configuration())) {
      DataDirectory dir = DataDirectory.open(store);
      BtreePage counter = new BtreePage(dir.pageRules(), IndexAccessMethod.BTREE.defaultFillfactor());
      for (String index : INDEXES) {
        SegmentedFile file = SegmentedFile.measure(store, paths.get(index), dir.control().segmentBlocks()).file();
        List<IndexPageStats> all = new ArrayList<>();
        List<Long> next = new ArrayList<>();
        byte[] page = new byte[PageHeader.BLCKSZ];
        for (long b = 0; b < file.blocks(); b++) {
          file.readBlocks(store, b, 1, page);
          all.add(counter.count(page, b));
          next.add(BtreePage.next(page));
        }
        pages.put(index, all);
        nextLinks.put(index, next);
        List<String> problems = new ArrayList<>();
        whole.put(index, IndexWholeBlocks.of(store, file, IndexAccessMethod.BTREE, dir.pageRules(), problems).blocks());
        assertEquals(List.of(), problems);
      }
    }
  }

  @AfterAll
  void close() {
    if (pg != null) {
      pg.close();
    }
  }

  /** Read whole: the root and the leaf ending the leaf level (btpo_next P_NONE), the tree two levels deep. */
  @Test
  void theRightmostPathIsReadWhole() {
    for (String index : INDEXES) {
      List<IndexPageStats> all = pages.get(index);
      List<String> path = new ArrayList<>();
      whole.get(index).forEach(b -> path.add(all.get((int) (long) b).kind() + " " + b + " next "
          + nextLinks.get(index).get((int) (long) b)));
      long lastLeaf = all.stream().filter(p -> p.kind() == IndexPageKind.LEAF
          && nextLinks.get(index).get((int) p.block()) == BtreePage.P_NONE).mapToLong(IndexPageStats::block)
          .findFirst().orElseThrow();
      assertEquals(Set.of("INNER " + rootOf(all) + " next 0", "LEAF " + lastLeaf + " next 0"), Set.copyOf(path), index);
    }
  }

  /** The one inner page of a two-level tree. */
  private static long rootOf(List<IndexPageStats> all) {
    List<Long> inner = all.stream().filter(p -> p.kind() == IndexPageKind.INNER).map(IndexPageStats::block).toList();
    assertEquals(1, inner.size(), "one inner page: " + inner);
    return inner.get(0);
  }

  /** The full count of the pages gives pgstatindex's avg_leaf_density (as it rounds it). */
  @Test
  void theFullCountIsPgstatindexs() {
    for (String index : INDEXES) {
      assertEquals(pgstatindex.get(index), truth(index), 0.005 + 1e-9, index);
    }
  }

  /** avg_leaf_density as pgstatindex computes it over every leaf. */
  private double truth(String index) {
    List<IndexPageStats> leaves = pages.get(index).stream().filter(p -> p.kind() == IndexPageKind.LEAF).toList();
    long free = leaves.stream().mapToLong(IndexPageStats::freeSpace).sum();
    return 100.0 - 100.0 * free / ((double) leaves.size() * BtreePage.MAX_AVAIL);
  }

  /** The seed's avg_leaf_density estimate as a run of {@code n} blocks makes it, {@code readWhole} read whole. */
  private Estimate density(String index, int n, long runSeed, BlockList readWhole) {
    List<IndexPageStats> all = pages.get(index);
    BlockList sampled = BlockSampler.sample(all.size() - 1, n, BlockSampler.seedFor(runSeed, "postgres", "public", index));
    Set<Long> read = new TreeSet<>(List.of(0L));
    sampled.forEach(b -> read.add(b + 1));
    readWhole.forEach(read::add);
    BlockList.Builder list = new BlockList.Builder();
    read.forEach(list::add);
    byte[] strata = IndexWholeBlocks.strata(list.build(), readWhole);
    IndexPageSums sums = new IndexPageSums(IndexAccessMethod.BTREE);
    int position = 0;
    for (long b : read) {
      sums.add(all.get((int) b), strata[position++] == Stratum.TAKE_ALL.ordinal());
    }
    return IndexPageEstimates.of(IndexAccessMethod.BTREE, all.size(), sums, null, 90, 0.95).avgLeafDensity();
  }

  /** Coverage and mean z over {@link #SEEDS} seeds. */
  private double[] coverage(String index, BlockList readWhole) {
    double truth = truth(index);
    int covered = 0;
    double z = 0;
    for (long seed = 1; seed <= SEEDS; seed++) {
      Estimate e = density(index, SAMPLE_BLOCKS, seed, readWhole);
      covered += e.low() <= truth && truth <= e.high() ? 1 : 0;
      z += e.standardError() > 0 ? (e.value() - truth) / e.standardError() : 0;
    }
    return new double[] {(double) covered / SEEDS, z / SEEDS};
  }

  @Test
  void theIntervalOfAvgLeafDensityHoldsTheFullCount() {
    StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
        "btree avg_leaf_density, 95 %% interval over %d seeds of %d blocks: coverage, mean z; "
            + "the rightmost path sampled / read whole%n", SEEDS, SAMPLE_BLOCKS));
    List<String> failures = new ArrayList<>();
    for (String index : INDEXES) {
      double[] sampled = coverage(index, BlockList.of());
      double[] after = coverage(index, whole.get(index));
      report.append(String.format(Locale.ROOT, "  %-15s %4d blocks: %5.1f %%, z %+.2f / %5.1f %%, z %+.2f%n", index,
          pages.get(index).size(), 100 * sampled[0], sampled[1], 100 * after[0], after[1]));
      if (after[0] < 0.90 || Math.abs(after[1]) > 0.3) {
        failures.add(index);
      }
      if (index.equals(LAST_LEAF_APART) && sampled[1] > -0.3) {
        failures.add(index + ": its last leaf apart, a sample that may miss it should be biased low");
      }
    }
    System.out.print(report);
    assertEquals(List.of(), failures, report.toString());
  }
}
