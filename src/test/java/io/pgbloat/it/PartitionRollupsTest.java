package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.testing.Csv;
import io.pgbloat.testing.PostgresCluster;
import io.pgbloat.testing.ToolRun;
import java.math.BigDecimal;
import java.math.RoundingMode;
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
 * single partitions' do.
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
      INSERT INTO events SELECT g, md5(g::text) || md5((g + 1)::text) FROM generate_series(0, 89999) g;
      DELETE FROM events WHERE id < 40000 AND random() < 0.3;
      DELETE FROM events WHERE id BETWEEN 60000 AND 70000;
      DELETE FROM events WHERE id >= 80000 AND random() < 0.05;
      CREATE TABLE legacy (id int, note text);
      CREATE TABLE legacy_child () INHERITS (legacy);
      INSERT INTO legacy_child SELECT g, 'x' FROM generate_series(1, 500) g;
      """;
  private static final List<String> LEAVES = List.of("events_2024", "events_2025_h1", "events_2025_h2", "events_other");
  private static final List<String> SUMMED = List.of("table_len", "tuple_count", "tuple_len", "dead_tuple_count",
      "dead_tuple_len", "free_space");

  private PostgresCluster pg;
  private Map<String, Map<String, String>> truth;

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
    pg.stop();
  }

  @AfterAll
  void close() {
    if (pg != null) {
      pg.close();
    }
  }

  private Map<String, Map<String, String>> report(String... more) {
    List<String> args = new ArrayList<>(List.of("analyze", "--data-dir", pg.dataDir().toString(), "--database",
        "postgres", "--format", "csv", "--master", "local[2]"));
    args.addAll(List.of(more));
    ToolRun run = ToolRun.of(args.toArray(String[]::new));
    assertEquals(0, run.status(), run.describe());
    Map<String, Map<String, String>> rows = new HashMap<>();
    for (Map<String, String> row : Csv.parseWithHeader(run.out())) {
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
  void namingThePartitionedTableGivesItsRollupAlone() {
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

  private static boolean covers(Map<String, String> row, long truth) {
    return Long.parseLong(row.get("dead_tuple_len_ci_low")) <= truth
        && truth <= Long.parseLong(row.get("dead_tuple_len_ci_high"));
  }
}
