package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.testing.Csv;
import io.pgbloat.testing.PostgresCluster;
import io.pgbloat.testing.ToolRun;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Partitioned tables rolled up, on a real PostgreSQL 15: {@code events}, range-partitioned
 * into four leaves through a sub-partitioned {@code events_2025} (two leaves of its own) and a
 * default partition, with dead tuples in some; a plain inheritance parent beside it, which is
 * no partitioned table. A full scan's rollup row equals the sum of pgstattuple() over the
 * leaves (pgstattuple refuses a partitioned table); a pattern naming the partitioned table
 * alone gives that row alone; sampled, the rollups' intervals hold the truth as often as the
 * single partitions' do. A btree and a hash index on {@code events} are partitioned indexes,
 * rolled up over their leaves likewise, and {@code --totals} groups each table's parts as
 * pg_total_relation_size does.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PartitionRollupsTest {
  private static final String SCENARIO = """
      CREATE EXTENSION pgstattuple;
      SELECT setseed(0.5);
      CREATE TABLE events (id int NOT NULL, note text NOT NULL) PARTITION BY RANGE (id);
      CREATE TABLE events_2024 PARTITION OF events FOR VALUES FROM (0) TO (40000);
      CREATE TABLE events_2025 PARTITION OF events FOR VALUES FROM (40000) TO (80000) PARTITION BY RANGE (id);
      CREATE TABLE events_2025_h1 PARTITION OF events_2025 FOR VALUES FROM (40000) TO (60000);
      CREATE TABLE events_2025_h2 PARTITION OF events_2025 FOR VALUES FROM (60000) TO (80000);
      CREATE TABLE events_other PARTITION OF events DEFAULT;
      CREATE INDEX events_id ON events (id);
      CREATE INDEX events_note ON events USING hash (note);
      INSERT INTO events SELECT g, md5(g::text) || md5((g + 1)::text) FROM generate_series(0, 89999) g;
      DELETE FROM events WHERE id < 40000 AND random() < 0.3;
      DELETE FROM events WHERE id BETWEEN 60000 AND 70000;
      DELETE FROM events WHERE id >= 80000 AND random() < 0.05;
      CREATE TABLE legacy (id int, note text);
      CREATE TABLE legacy_child () INHERITS (legacy);
      INSERT INTO legacy_child SELECT g, 'x' FROM generate_series(1, 500) g;
      """;
  /** pgstatindex() of each leaf index of events_id, by name, and the sizes PostgreSQL gives. */
  private static final String INDEX_TRUTH = """
      SELECT c.relname, s.leaf_pages, s.internal_pages, s.deleted_pages, pg_relation_size(c.oid) AS size
      FROM pg_partition_tree('events_id') t JOIN pg_class c ON c.oid = t.relid
      CROSS JOIN LATERAL pgstatindex(c.oid::regclass) s WHERE t.isleaf
      """;
  private static final List<String> LEAVES = List.of("events_2024", "events_2025_h1", "events_2025_h2", "events_other");
  private static final List<String> SUMMED = List.of("table_len", "tuple_count", "tuple_len", "dead_tuple_count",
      "dead_tuple_len", "free_space");

  private PostgresCluster pg;
  private Map<String, Map<String, String>> truth;
  private List<Map<String, String>> leafIndexes;
  /** pgstathashindex()'s live_items summed over events_note's leaves. */
  private long hashLiveItems;
  /** Per table of public, its main forks' bytes as pg_total_relation_size groups them. */
  private Map<String, Long> totalBytes;

  @BeforeAll
  void build() {
    PostgresCluster.assumeServer();
    pg = PostgresCluster.builder().init();
    pg.start();
    pg.psql("postgres", SCENARIO);
    pg.stop();
    pg.start();
    truth = new HashMap<>();
    for (Map<String, String> row : pg.queryCsv("postgres", "SELECT c.relname, t.* FROM pg_class c"
        + " CROSS JOIN LATERAL pgstattuple(c.oid::regclass) t"
        + " WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace")) {
      truth.put(row.get("relname"), row);
    }
    leafIndexes = pg.queryCsv("postgres", INDEX_TRUTH);
    hashLiveItems = Long.parseLong(pg.queryCsv("postgres", "SELECT sum(h.live_items) AS live FROM"
        + " pg_partition_tree('events_note') t CROSS JOIN LATERAL pgstathashindex(t.relid) h WHERE t.isleaf")
        .get(0).get("live"));
    totalBytes = new HashMap<>();
    for (Map<String, String> row : pg.queryCsv("postgres", "SELECT c.relname, " + TotalSizes.MAIN_FORKS
        + " AS total FROM pg_class c WHERE c.relkind IN ('r', 'p') AND c.relnamespace = 'public'::regnamespace")) {
      totalBytes.put(row.get("relname"), Long.parseLong(row.get("total")));
    }
    pg.stop();
  }

  @AfterAll
  void close() {
    if (pg != null) {
      pg.close();
    }
  }

  private Map<String, Map<String, String>> report(String... more) {
    return byName(run(more).out());
  }

  private ToolRun run(String... more) {
    List<String> args = new ArrayList<>(List.of("analyze", "--data-dir", pg.dataDir().toString(), "--database",
        "postgres", "--format", "csv", "--master", "local[2]"));
    args.addAll(List.of(more));
    ToolRun run = ToolRun.of(args.toArray(String[]::new));
    assertEquals(0, run.status(), run.describe());
    return run;
  }

  /** The rows of public's relations in a CSV report, by relname. */
  private static Map<String, Map<String, String>> byName(String csv) {
    Map<String, Map<String, String>> rows = new HashMap<>();
    for (Map<String, String> row : Csv.parseWithHeader(csv)) {
      if (row.get("schema").equals("public")) {
        rows.put(row.get("relname"), row);
      }
    }
    return rows;
  }

  private long truthSum(List<String> leaves, String column) {
    return leaves.stream().mapToLong(l -> Long.parseLong(truth.get(l).get(column))).sum();
  }

  @Test
  void aFullScansRollupIsTheSumOfItsLeavesPgstattuple() {
    Map<String, Map<String, String>> rows = report("--full-scan", "--table", "public.*");
    Map<String, String> events = rows.get("events");
    assertEquals("p", events.get("relkind"));
    assertEquals("4", events.get("partitions"));
    assertEquals("", events.get("relpath"));
    for (String column : SUMMED) {
      assertEquals(Long.toString(truthSum(LEAVES, column)), events.get(column), "events " + column);
    }
    String percent = new BigDecimal(100.0 * truthSum(LEAVES, "dead_tuple_len") / truthSum(LEAVES, "table_len"))
        .setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    assertEquals(percent, events.get("dead_tuple_percent"));
    Map<String, String> sub = rows.get("events_2025");
    assertEquals("2", sub.get("partitions"));
    assertEquals(Long.toString(truthSum(List.of("events_2025_h1", "events_2025_h2"), "dead_tuple_count")),
        sub.get("dead_tuple_count"));
    for (String leaf : LEAVES) {
      assertEquals(truth.get(leaf).get("tuple_count"), rows.get(leaf).get("tuple_count"), leaf);
      assertEquals("", rows.get(leaf).get("partitions"), leaf + " is no rollup");
    }
    assertEquals("r", rows.get("legacy").get("relkind"), "plain inheritance is no partitioning");
    assertEquals("", rows.get("legacy").get("partitions"));
  }

  @Test
  void namingThePartitionedRelationGivesItsRollupAlone() {
    Map<String, Map<String, String>> rows = report("--full-scan", "--table", "public.events");
    assertEquals(List.of("events"), List.copyOf(rows.keySet()));
    assertEquals(Long.toString(truthSum(LEAVES, "dead_tuple_len")), rows.get("events").get("dead_tuple_len"));
  }

  /**
   * 30 seeds, 12 blocks a relation: the rollup's 95 % interval of dead bytes holds the truth
   * about as often as a single partition's does (each partition is sampled independently and
   * the variances add).
   */
  @Test
  void sampledRollupsCoverTheTruthAsOftenAsSinglePartitions() {
    int seeds = 30;
    int rollupCovered = 0;
    int partitionsCovered = 0;
    int partitionCases = 0;
    long truthDead = truthSum(LEAVES, "dead_tuple_len");
    for (int seed = 1; seed <= seeds; seed++) {
      Map<String, Map<String, String>> rows = report("--sample-blocks", "12", "--seed", Integer.toString(seed),
          "--table", "public.events*");
      Map<String, String> events = rows.get("events");
      assertTrue(Long.parseLong(events.get("scanned_blocks")) < Long.parseLong(events.get("blocks")), "sampled");
      rollupCovered += covers(events, truthDead) ? 1 : 0;
      for (String leaf : LEAVES) {
        partitionCases++;
        partitionsCovered += covers(rows.get(leaf), Long.parseLong(truth.get(leaf).get("dead_tuple_len"))) ? 1 : 0;
      }
    }
    System.out.printf("partition rollups, dead_tuple_len's 95 %% interval held the truth: rollup %d/%d, single"
        + " partitions %d/%d%n", rollupCovered, seeds, partitionsCovered, partitionCases);
    double rollup = (double) rollupCovered / seeds;
    double single = (double) partitionsCovered / partitionCases;
    assertTrue(rollup >= 0.8 && rollup >= single - 0.15,
        "dead_tuple_len covered: rollup " + rollupCovered + "/" + seeds + ", single partitions " + partitionsCovered
            + "/" + partitionCases);
  }

  /**
   * A partitioned index's row sums its leaf indexes' rows (each equal to pgstatindex on its
   * leaf), the hash one's too; naming the partitioned index alone reads its leaves and reports
   * its row alone.
   */
  @Test
  void aPartitionedIndexsRowSumsItsLeafIndexes() throws IOException {
    Path out = Files.createTempFile("pgbloat-partitioned-indexes", ".csv");
    run("--full-scan", "--table", "public.events*", "--indexes", "--index-output", out.toString());
    Map<String, Map<String, String>> indexes = byName(Files.readString(out));
    Map<String, String> rollup = indexes.get("events_id");
    assertEquals("I", rollup.get("relkind"));
    assertEquals("btree", rollup.get("am"));
    assertEquals(Integer.toString(leafIndexes.size()), rollup.get("partitions"));
    assertEquals(4, leafIndexes.size());
    for (String column : List.of("leaf_pages", "internal_pages", "deleted_pages")) {
      long sum = leafIndexes.stream().mapToLong(r -> Long.parseLong(r.get(column))).sum();
      assertEquals(Long.toString(sum), rollup.get(column), "events_id " + column);
    }
    long size = leafIndexes.stream().mapToLong(r -> Long.parseLong(r.get("size"))).sum();
    assertEquals(Long.toString(size), rollup.get("index_size"));
    long reclaimable = leafIndexes.stream()
        .mapToLong(r -> Long.parseLong(indexes.get(r.get("relname")).get("reclaimable_bytes"))).sum();
    assertEquals(Long.toString(reclaimable), rollup.get("reclaimable_bytes"));
    assertEquals("0.00", rollup.get("reclaimable_bytes_se"));
    assertEquals("", rollup.get("avg_leaf_density"), "a ratio is not summed");
    Map<String, String> hash = indexes.get("events_note");
    assertEquals("hash", hash.get("am"));
    long liveItems = 0;
    for (Map<String, String> r : indexes.values()) {
      if (r.get("am").equals("hash") && r.get("relkind").equals("i")) {
        liveItems += Long.parseLong(r.get("live_items"));
      }
    }
    assertEquals(Long.toString(liveItems), hash.get("live_items"));
    assertEquals(Long.toString(hashLiveItems), hash.get("live_items"));

    Path alone = Files.createTempFile("pgbloat-partitioned-index", ".csv");
    run("--full-scan", "--relkind", "I", "--table", "public.events_id", "--indexes", "--index-output",
        alone.toString());
    Map<String, Map<String, String>> only = byName(Files.readString(alone));
    assertEquals(List.of("events_id"), List.copyOf(only.keySet()));
    assertEquals(rollup.get("leaf_pages"), only.get("events_id").get("leaf_pages"));
  }

  /**
   * --totals: a table's total_bytes is what PostgreSQL's own sizes give for its main forks
   * (table, TOAST, TOAST index, indexes), also for a table named alone, whose TOAST table and
   * indexes the filter does not select; a partitioned table's sums its leaves'.
   */
  @Test
  void totalsGroupWhatPgTotalRelationSizeGroups() throws IOException {
    Path out = Files.createTempFile("pgbloat-totals", ".csv");
    run("--full-scan", "--table", "public.*", "--totals", "--totals-output", out.toString());
    Map<String, Map<String, String>> totals = byName(Files.readString(out));
    for (String table : List.of("events_2024", "events_2025_h1", "events_other", "legacy_child")) {
      assertEquals(Long.toString(totalBytes.get(table)), totals.get(table).get("total_bytes"), table);
    }
    long leaves = LEAVES.stream().mapToLong(totalBytes::get).sum();
    assertEquals(Long.toString(leaves), totals.get("events").get("total_bytes"), "events sums its leaves");
    assertEquals("4", totals.get("events").get("partitions"));
    assertEquals("12", totals.get("events").get("indexes"), "two indexes and a TOAST index on each of four leaves");
    assertEquals("", totals.get("events").get("not_estimated"), "btree and hash rebuilds are modelled");

    Path alone = Files.createTempFile("pgbloat-total", ".csv");
    ToolRun named = run("--full-scan", "--table", "public.events_2024", "--totals", "--totals-output",
        alone.toString());
    assertEquals(List.of("events_2024"), List.copyOf(byName(named.out()).keySet()), "the parts are not reported");
    assertEquals(totals.get("events_2024"), byName(Files.readString(alone)).get("events_2024"));
  }

  private static boolean covers(Map<String, String> row, long truth) {
    return Long.parseLong(row.get("dead_tuple_len_ci_low")) <= truth
        && truth <= Long.parseLong(row.get("dead_tuple_len_ci_high"));
  }
}
