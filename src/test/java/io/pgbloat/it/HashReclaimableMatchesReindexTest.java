package io.pgbloat.it;

import static io.pgbloat.page.PageHeader.BLCKSZ;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.rebuild.HashRebuild;
import io.pgbloat.stats.Estimate;
import io.pgbloat.testing.Artifacts;
import io.pgbloat.testing.Csv;
import io.pgbloat.testing.PostgresCluster;
import io.pgbloat.testing.PostgresInstallation;
import io.pgbloat.testing.ToolRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * End to end against the thing itself, on PostgreSQL 13 to 18, whose estimates differ (13 tells
 * a table never vacuumed or analysed by relpages 0, 14 on by reltuples -1; 17 on guesses from
 * the row width at the fillfactor; 18's CREATE INDEX sets no table statistics). A hash build
 * chooses its buckets for the planner's estimate of its table's tuples, so hash indexes are
 * built here in the states that estimate comes from: tables never vacuumed or analysed (the
 * estimate guessed from the row width; after non-HOT updates, in the leaves of a partitioned
 * table, with rows wider and narrower than the guess, with a fillfactor, of a few pages, with
 * inheritance children), indexed after loading, analysed, vacuumed, analysed and then grown
 * (stale), truncated after ANALYZE, and at fillfactor 100. Each table has one hash index, so
 * that no REINDEX changes the statistics another's reads. The server is stopped, the tool's full
 * scan says what a {@code REINDEX} would give back, a server on a copy rebuilds every hash index
 * with {@code REINDEX INDEX}, and what it really shrank by, pg_relation_size before less after,
 * is compared with {@code reclaimable_bytes}. The comparison, with what a model taking the
 * index's live items for the tuples a build expects says, is written to
 * {@code target/pgbloat-it/hash-reclaimable-<major>.txt}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ParameterizedClass(name = "PostgreSQL {0}")
@MethodSource("majors")
class HashReclaimableMatchesReindexTest {
  @Parameter
  int major;

  static Stream<Integer> majors() {
    return PostgresInstallation.majors().stream();
  }

  /** The bound the rebuild models keep to: 5 % of an index of {@code size} bytes, or two pages, whichever is larger. */
  private static long allowed(long size) {
    return Math.max(2L * BLCKSZ, size / 20);
  }

  private static final String BUILD = """
      -- never vacuumed or analysed: reltuples -1 (0 on 13), so the build guesses a density from
      -- the row width; non-HOT updates leave the old rows in the heap and their entries in the index
      CREATE TABLE grown (id int NOT NULL, v text NOT NULL);
      CREATE INDEX grown_h ON grown USING hash (id);
      INSERT INTO grown SELECT g, md5(g::text) FROM generate_series(1, 30000) g;
      UPDATE grown SET id = id + 1000000 WHERE id % 2 = 0;
      -- the same in the leaves of a partitioned table: hash partitions, a hash index on another key
      CREATE TABLE parted (id int NOT NULL, k int NOT NULL, v text NOT NULL) PARTITION BY HASH (id);
      CREATE TABLE parted_0 PARTITION OF parted FOR VALUES WITH (MODULUS 3, REMAINDER 0);
      CREATE TABLE parted_1 PARTITION OF parted FOR VALUES WITH (MODULUS 3, REMAINDER 1);
      CREATE TABLE parted_2 PARTITION OF parted FOR VALUES WITH (MODULUS 3, REMAINDER 2);
      CREATE INDEX parted_k ON parted USING hash (k);
      INSERT INTO parted SELECT g, g, md5(g::text) FROM generate_series(1, 30000) g;
      UPDATE parted SET k = k + 1000000;
      -- rows wider than the width guess: the build expects more tuples than there are
      CREATE TABLE wide (id int NOT NULL, v text NOT NULL);
      CREATE INDEX wide_h ON wide USING hash (id);
      INSERT INTO wide SELECT g, repeat(md5(g::text), 4) FROM generate_series(1, 20000) g;
      -- the same loaded, then indexed: CREATE INDEX sets the table's relpages and reltuples on
      -- 13-17 (then a third is updated), not on 18
      CREATE TABLE loaded (id int NOT NULL, v text NOT NULL);
      INSERT INTO loaded SELECT g, repeat(md5(g::text), 4) FROM generate_series(1, 20000) g;
      CREATE INDEX loaded_h ON loaded USING hash (id);
      UPDATE loaded SET id = id + 1000000 WHERE id % 3 = 0;
      -- rows narrower than the width guess: the build expects too few tuples and splits as it goes
      CREATE TABLE short_rows (id int NOT NULL, v text NOT NULL);
      CREATE INDEX short_rows_h ON short_rows USING hash (id);
      INSERT INTO short_rows SELECT g, 'a' FROM generate_series(1, 50000) g;
      -- a fillfactor, which the width guess fills pages to from 17 on
      CREATE TABLE padded (id int NOT NULL, v text NOT NULL) WITH (fillfactor = 50);
      CREATE INDEX padded_h ON padded USING hash (id);
      INSERT INTO padded SELECT g, md5(g::text) FROM generate_series(1, 20000) g;
      -- a few pages never vacuumed, taken as 10; unless the table has inheritance children
      CREATE TABLE tiny (id int NOT NULL, v text NOT NULL);
      CREATE INDEX tiny_h ON tiny USING hash (id);
      INSERT INTO tiny SELECT g, md5(g::text) FROM generate_series(1, 300) g;
      CREATE TABLE parent (id int NOT NULL, v text NOT NULL);
      CREATE TABLE child () INHERITS (parent);
      CREATE INDEX parent_h ON parent USING hash (id);
      INSERT INTO parent SELECT g, md5(g::text) FROM generate_series(1, 300) g;
      -- analysed after non-HOT updates: the live rows' density over every page
      CREATE TABLE analysed (id int NOT NULL, v text NOT NULL);
      CREATE INDEX analysed_h ON analysed USING hash (id);
      INSERT INTO analysed SELECT g, md5(g::text) FROM generate_series(1, 30000) g;
      UPDATE analysed SET id = id + 1000000 WHERE id % 3 = 0;
      ANALYZE analysed;
      -- thinned by half and vacuumed
      CREATE TABLE vacuumed (id int NOT NULL, v text NOT NULL);
      CREATE INDEX vacuumed_h ON vacuumed USING hash (id);
      INSERT INTO vacuumed SELECT g, md5(g::text) FROM generate_series(1, 30000) g;
      DELETE FROM vacuumed WHERE id % 2 = 0;
      VACUUM vacuumed;
      -- stale: analysed, then doubled and a quarter updated
      CREATE TABLE stale (id int NOT NULL, v text NOT NULL);
      CREATE INDEX stale_h ON stale USING hash (id);
      INSERT INTO stale SELECT g, md5(g::text) FROM generate_series(1, 15000) g;
      ANALYZE stale;
      INSERT INTO stale SELECT g, md5(g::text) FROM generate_series(15001, 30000) g;
      UPDATE stale SET id = id + 1000000 WHERE id % 4 = 0;
      -- truncated after ANALYZE: no density again, but pg_statistic's widths for the guess
      CREATE TABLE truncated (id int NOT NULL, v text NOT NULL);
      CREATE INDEX truncated_h ON truncated USING hash (id);
      INSERT INTO truncated SELECT g, repeat(md5(g::text), 3) FROM generate_series(1, 3000) g;
      ANALYZE truncated;
      TRUNCATE truncated;
      INSERT INTO truncated SELECT g, repeat(md5(g::text), 3) FROM generate_series(1, 20000) g;
      -- fillfactor 100: a fresh build's buckets hold more than a page, on average nearly one
      CREATE TABLE full_buckets (id int NOT NULL);
      INSERT INTO full_buckets SELECT g FROM generate_series(1, 60000) g;
      ANALYZE full_buckets;
      CREATE INDEX full_buckets_h ON full_buckets USING hash (id) WITH (fillfactor = 100);
      CHECKPOINT;
      """;

  /** The hash indexes with storage, their sizes, and their tables' statistics as the copy has them. */
  private static final String HASH_INDEXES = """
      SELECT i.relname AS index, pg_relation_size(i.oid) AS size, t.relpages, t.reltuples
      FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
      JOIN pg_am a ON a.oid = i.relam
      WHERE a.amname = 'hash' AND i.relkind = 'i' AND i.relnamespace = 'public'::regnamespace ORDER BY 1""";

  /** index → its row of the tool's index report. */
  private final Map<String, Map<String, String>> reported = new LinkedHashMap<>();
  /** index → its row of {@link #HASH_INDEXES} before the REINDEX, then after. */
  private final Map<String, Map<String, String>> before = new LinkedHashMap<>();
  private final Map<String, Map<String, String>> after = new LinkedHashMap<>();
  /** index → its row of a run that selects indexes alone ({@code --relkind i}). */
  private final Map<String, Map<String, String>> indexesAlone = new LinkedHashMap<>();

  @BeforeParameterizedClassInvocation
  void buildScanAndReindex() throws IOException {
    PostgresCluster.assumeServer(major);
    reported.clear();
    before.clear();
    after.clear();
    indexesAlone.clear();
    try (PostgresCluster pg = PostgresCluster.builder().version(major).init()) {
      pg.start();
      pg.psql("postgres", BUILD);
      pg.stop();
      indexReport(pg.dataDir()).forEach(row -> reported.put(row.get("relname"), row));
      indexReport(pg.dataDir(), "--relkind", "i").forEach(row -> indexesAlone.put(row.get("relname"), row));
      try (PostgresCluster copy = PostgresCluster.onCopyOf(pg.dataDir())) {
        copy.start();
        copy.queryCsv("postgres", HASH_INDEXES).forEach(row -> before.put(row.get("index"), row));
        before.keySet().forEach(index -> copy.psql("postgres", "REINDEX INDEX " + index));
        copy.queryCsv("postgres", HASH_INDEXES).forEach(row -> after.put(row.get("index"), row));
        copy.stop();
      }
    }
  }

  /** The tool's index report of a full scan of {@code dataDir}. */
  private static List<Map<String, String>> indexReport(Path dataDir, String... more) throws IOException {
    Path csv = Files.createTempFile("pgbloat-hash-report", ".csv");
    try {
      List<String> args = new ArrayList<>(List.of("analyze", "--data-dir", dataDir.toString(), "--database",
          "postgres", "--table", "public.*", "--indexes", "--full-scan", "--format", "csv", "--output", "/dev/null",
          "--index-output", csv.toString(), "--master", "local[2]"));
      args.addAll(List.of(more));
      ToolRun run = ToolRun.of(args.toArray(String[]::new));
      assertEquals(0, run.status(), run.describe());
      return Csv.parseWithHeader(Files.readString(csv));
    } finally {
      Files.delete(csv);
    }
  }

  @Test
  void reclaimableBytesMatchWhatReindexGaveBack() throws IOException {
    List<String> lines = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    int liveItemsModelMisses = 0;
    lines.add(String.format(Locale.ROOT, "%-16s %8s %10s %4s %10s %10s %10s %10s %8s   %s", "index", "relpages",
        "reltuples", "ff", "before", "after", "reclaimed", "tool", "error", "from live items"));
    for (Map.Entry<String, Map<String, String>> e : before.entrySet()) {
      String name = e.getKey();
      long size = Long.parseLong(e.getValue().get("size"));
      long rebuilt = Long.parseLong(after.get(name).get("size"));
      long reclaimed = size - rebuilt;
      Map<String, String> row = reported.get(name);
      assertTrue(row != null, "no row for " + name);
      assertEquals(Long.toString(size), row.get("index_size"), name + ": the tool saw another size");
      long tool = Long.parseLong(row.get("reclaimable_bytes"));
      long allowed = allowed(size);
      int fillfactor = Integer.parseInt(row.get("fillfactor"));
      long liveItemsModel = (long) HashRebuild.reclaimableBytes(size / BLCKSZ,
          Estimate.exact(Double.parseDouble(row.get("live_items"))), fillfactor).value();
      lines.add(String.format(Locale.ROOT, "%-16s %8s %10s %4d %10d %10d %10d %10d %7.2f%%   %d", name,
          e.getValue().get("relpages"), e.getValue().get("reltuples"), fillfactor, size, rebuilt, reclaimed, tool,
          100.0 * (tool - reclaimed) / size, liveItemsModel));
      if (Math.abs(tool - reclaimed) > allowed) {
        problems.add(name + ": reclaimable_bytes " + tool + ", REINDEX gave back " + reclaimed + " of " + size);
      }
      if (Math.abs(liveItemsModel - reclaimed) > allowed) {
        liveItemsModelMisses++;
      }
    }
    Files.write(Artifacts.under().file("hash-reclaimable-" + major + ".txt"), lines, StandardCharsets.UTF_8);
    String table = String.join("\n", lines);
    assertTrue(problems.isEmpty(), String.join("\n", problems) + "\n" + table);
    assertEquals(15, before.size(), "every hash index was rebuilt\n" + table); // 12 tables and 3 leaves
    // the states are what they are for: these tables' statistics were never set, and an index
    // built on a loaded table set them but on 18
    String unset = major >= 14 ? "-1" : "0";
    for (String index : List.of("grown_h", "parted_0_k_idx", "wide_h", "short_rows_h", "padded_h", "tiny_h",
        "truncated_h")) {
      assertEquals(unset, before.get(index).get("reltuples"), index + "\n" + table);
    }
    assertEquals(major >= 18, before.get("loaded_h").get("reltuples").equals(unset), table);
    // and a model taking the index's live items for the tuples a build expects misses some of them
    assertTrue(liveItemsModelMisses > 0, table);
  }

  /** A run that selects the indexes alone reads their tables for them, and says what the full run says. */
  @Test
  void indexesAloneAreModelledAsWithTheirTables() {
    assertEquals(before.keySet(), indexesAlone.keySet(), "the hash indexes of an index-only run");
    for (String index : before.keySet()) {
      assertEquals(reported.get(index).get("reclaimable_bytes"), indexesAlone.get(index).get("reclaimable_bytes"),
          index + ": reclaimable_bytes with --relkind i");
    }
  }
}
