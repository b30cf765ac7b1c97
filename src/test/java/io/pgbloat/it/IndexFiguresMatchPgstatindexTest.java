package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pgbloat.catalog.DataDirectory;
import io.pgbloat.catalog.Database;
import io.pgbloat.catalog.RelKind;
import io.pgbloat.catalog.Relation;
import io.pgbloat.figures.IndexFigures;
import io.pgbloat.io.store.HadoopFileStore;
import io.pgbloat.io.store.StoreSettings;
import io.pgbloat.page.BtreePage;
import io.pgbloat.page.LittleEndian;
import io.pgbloat.page.PageChecksum;
import io.pgbloat.page.PageHeader;
import io.pgbloat.scan.BtreeIndexScan;
import io.pgbloat.scan.BtreeIndexScanner;
import io.pgbloat.stats.IndexMeasure;
import io.pgbloat.testing.Csv;
import io.pgbloat.testing.PostgresCluster;
import io.pgbloat.testing.ToolRun;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * End to end, on a real server of each major version 13-18: btree indexes in many states;
 * that version's {@code pgstatindex()} of every btree index of two databases (system catalogs, TOAST and shared catalogs
 * included) is taken on the running server, the server is stopped, and the figures computed
 * from the files by {@link BtreeIndexScanner} must equal every column.
 *
 * <p>Two states no SQL makes reliably are made by hand on the stopped cluster, before the
 * truth is taken, so the server's own pgstatindex judges them: a new (all-zero) page appended
 * to an index, and a leaf page marked half-dead (its checksum recomputed).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ParameterizedClass(name = "PostgreSQL {0}")
@MethodSource("io.pgbloat.testing.PostgresInstallation#majors")
class IndexFiguresMatchPgstatindexTest {
  @Parameter
  int major;

  private static final String OTHER_DB = "other";

  private static final String SCENARIO = """
      CREATE EXTENSION pgstattuple;
      SELECT setseed(0.25);
      -- fresh, built by CREATE INDEX; a text index; a hash index that must not be listed
      CREATE TABLE fresh (id int PRIMARY KEY, v text NOT NULL);
      INSERT INTO fresh SELECT g, md5(g::text) FROM generate_series(1, 5000) g;
      CREATE INDEX fresh_v ON fresh (v);
      CREATE INDEX fresh_hash ON fresh USING hash (id);
      -- never inserted into: the metapage alone, no root
      CREATE TABLE empty_t (id int);
      CREATE INDEX empty_idx ON empty_t (id);
      -- 100k rows: a unique index with internal pages, a two-level text index, a fillfactor
      CREATE TABLE big (id int NOT NULL, pad int NOT NULL);
      INSERT INTO big SELECT g, g % 1000 FROM generate_series(1, 100000) g;
      CREATE UNIQUE INDEX big_id ON big (id);
      CREATE INDEX big_md5 ON big (md5(id::text));
      CREATE INDEX big_pad_ff50 ON big (pad, id) WITH (fillfactor = 50);
      CREATE INDEX big_dups ON big ((id % 7));
      -- random-order inserts into an existing index: splits leave leaves out of block order
      CREATE TABLE rnd (k int NOT NULL, t text NOT NULL);
      CREATE INDEX rnd_k ON rnd (k);
      CREATE INDEX rnd_t ON rnd (t) INCLUDE (k);
      INSERT INTO rnd SELECT (random() * 1e9)::int, md5(random()::text) FROM generate_series(1, 30000);
      -- deletes + VACUUM: deleted pages; then inserts reuse some of them
      CREATE TABLE churn (id int PRIMARY KEY, note text);
      INSERT INTO churn SELECT g, 'n' || g FROM generate_series(1, 60000) g;
      DELETE FROM churn WHERE id BETWEEN 5000 AND 50000;
      VACUUM churn;
      CREATE TABLE churn2 (id int PRIMARY KEY);
      INSERT INTO churn2 SELECT generate_series(1, 40000);
      DELETE FROM churn2 WHERE id % 10 <> 0 OR id < 30000;
      VACUUM churn2;
      VACUUM churn2;
      INSERT INTO churn2 SELECT generate_series(40001, 45000);
      -- an unlogged table's index, a partial index, a partitioned index (relkind I, no storage)
      CREATE UNLOGGED TABLE unlogged_t (id int PRIMARY KEY);
      INSERT INTO unlogged_t SELECT generate_series(1, 3000);
      CREATE INDEX big_partial ON big (pad) WHERE id % 100 = 0;
      CREATE TABLE parted (id int NOT NULL, v int) PARTITION BY RANGE (id);
      CREATE TABLE parted_1 PARTITION OF parted FOR VALUES FROM (0) TO (1000);
      CREATE TABLE parted_2 PARTITION OF parted FOR VALUES FROM (1000) TO (2000);
      CREATE INDEX parted_v ON parted (v);
      INSERT INTO parted SELECT g, g FROM generate_series(0, 1999) g;
      -- states made by hand on the stopped cluster
      CREATE TABLE crafted (id int NOT NULL);
      INSERT INTO crafted SELECT generate_series(1, 20000);
      CREATE INDEX crafted_new_page ON crafted (id);
      CREATE INDEX crafted_half_dead ON crafted (id);
      -- a failed CREATE INDEX CONCURRENTLY leaves an invalid index, which pgstatindex refuses
      CREATE TABLE dup (id int);
      INSERT INTO dup VALUES (1), (1);
      """;

  /** pgstatindex of every btree index pgstatindex accepts, run in each database. */
  private static final String TRUTH = """
      SELECT CASE WHEN c.relisshared THEN '' ELSE current_database() END AS database, c.oid,
             n.nspname, c.relname, s.*
        FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_index i ON i.indexrelid = c.oid,
             LATERAL pgstatindex(c.oid::regclass) s
       WHERE c.relkind = 'i' AND c.relam = 403 AND i.indisvalid AND c.relpersistence <> 't'
      """;

  private static final List<String> COLUMNS = List.of("version", "tree_level", "index_size", "root_block_no",
      "internal_pages", "leaf_pages", "empty_pages", "deleted_pages", "avg_leaf_density", "leaf_fragmentation");

  private PostgresCluster pg;
  private final Map<String, Map<String, String>> truth = new LinkedHashMap<>();
  private final Map<String, BtreeIndexScan> scans = new LinkedHashMap<>();
  private final Map<String, Relation> listed = new LinkedHashMap<>();

  @BeforeParameterizedClassInvocation
  void buildTakeTruthAndScan() throws IOException {
    PostgresCluster.assumeServer(major);
    // one instance serves every version's invocation (PER_CLASS): start each from empty
    truth.clear();
    scans.clear();
    listed.clear();
    pg = PostgresCluster.builder().version(major).dataChecksums(true).init();
    pg.start();
    pg.psql("postgres", SCENARIO);
    try {
      pg.psql("postgres", "CREATE UNIQUE INDEX CONCURRENTLY dup_invalid ON dup (id)");
      fail("CREATE UNIQUE INDEX CONCURRENTLY on duplicates should fail and leave an invalid index");
    } catch (IllegalStateException expected) {
      // the invalid index stays behind
    }
    pg.psql("postgres", "CREATE DATABASE " + OTHER_DB);
    pg.psql(OTHER_DB, "CREATE EXTENSION pgstattuple; CREATE TABLE t (id int PRIMARY KEY, v text);"
        + " INSERT INTO t SELECT g, g::text FROM generate_series(1, 2000) g;");
    pg.psql("template1", "CREATE EXTENSION pgstattuple"); // the tool lists template1's indexes too
    String newPagePath = relpath("crafted_new_page");
    String halfDeadPath = relpath("crafted_half_dead");
    pg.stop();

    appendNewPage(pg.dataDir().resolve(newPagePath));
    markALeafHalfDead(pg.dataDir().resolve(halfDeadPath));

    pg.start();
    for (String db : List.of("postgres", OTHER_DB, "template1")) {
      for (Map<String, String> row : pg.queryCsv(db, TRUTH)) {
        truth.putIfAbsent(key(row.get("database"), Long.parseLong(row.get("oid"))), row);
      }
    }
    pg.stop();

    try (HadoopFileStore files = HadoopFileStore.open(pg.dataDir().toString(), StoreSettings.DEFAULT.configuration())) {
      DataDirectory dir = DataDirectory.open(files);
      BtreeIndexScanner scanner = new BtreeIndexScanner(files, dir.control().segmentBlocks(), dir.pageRules());
      for (Database db : dir.databases()) {
        for (Relation index : dir.indexes(db).stream().filter(i -> i.am().equals("btree")).toList()) {
          String key = key(index.database(), index.oid());
          if (listed.putIfAbsent(key, index) == null) {
            scans.put(key, scanner.scan(index.relpath()));
          }
        }
      }
    }
  }

  @AfterParameterizedClassInvocation
  void closeCluster() {
    if (pg != null) {
      pg.close();
    }
  }

  @Test
  void listsExactlyTheIndexesPgstatindexAccepts() {
    Set<String> missing = new TreeSet<>(truth.keySet());
    missing.removeAll(listed.keySet());
    Set<String> extra = new TreeSet<>(listed.keySet());
    extra.removeAll(truth.keySet());
    assertEquals(List.of(), List.copyOf(missing), "indexes pgstatindex reads that indexes() does not list as btree");
    assertEquals(List.of(), List.copyOf(extra), "btree indexes indexes() lists that pgstatindex does not read");
    assertTrue(truth.size() > 300, "indexes compared: " + truth.size());
    assertTrue(listed.values().stream().allMatch(r -> r.kind() == RelKind.INDEX));
    assertTrue(listed.values().stream().noneMatch(r -> r.name().equals("dup_invalid") || r.name().equals("fresh_hash")
        || r.name().equals("parted_v")));
  }

  @Test
  void everyColumnEqualsPgstatindex() {
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, Map<String, String>> e : truth.entrySet()) {
      BtreeIndexScan scan = scans.get(e.getKey());
      Map<String, String> want = e.getValue();
      String name = want.get("database") + ":" + want.get("nspname") + "." + want.get("relname");
      if (scan == null) {
        problems.add(name + ": not listed by indexes()");
        continue;
      }
      if (!scan.findings().isEmpty() || scan.meta() == null) {
        problems.add(name + ": bad pages " + scan.findings() + " metapage " + scan.meta());
      }
      List<String> got = columns(scan.figures());
      for (int c = 0; c < COLUMNS.size(); c++) {
        String column = COLUMNS.get(c);
        if (!sameValue(want.get(column), got.get(c))) {
          problems.add(name + " " + column + ": pgstatindex " + want.get(column) + ", files " + got.get(c));
        }
      }
    }
    if (!problems.isEmpty()) {
      fail(problems.size() + " difference(s) over " + truth.size() + " indexes:\n  " + String.join("\n  ", problems));
    }
  }

  /**
   * The same through the command line, as a user runs it: {@code --full-scan --indexes} on
   * local[2] (the Spark job, the prefetch streams), the index report as CSV: one row per index
   * pgstatindex read, every column equal.
   */
  @Test
  void commandLineIndexReportEqualsPgstatindex(@TempDir Path out) throws IOException {
    Path indexCsv = out.resolve("indexes.csv");
    ToolRun run = ToolRun.of("analyze", "--data-dir", pg.dataDir().toString(), "--full-scan", "--indexes",
        "--format", "csv", "--output", out.resolve("tables.csv").toString(), "--index-output", indexCsv.toString(),
        "--master", "local[2]");
    assertEquals(0, run.status(), run.describe());
    Map<String, Map<String, String>> byName = new LinkedHashMap<>();
    truth.values().forEach(r -> byName.put(r.get("database") + ":" + r.get("nspname") + "." + r.get("relname"), r));
    List<String> problems = new ArrayList<>();
    List<Map<String, String>> all = Csv.parseWithHeader(Files.readString(indexCsv));
    // every index is reported, the hash one too, with its access method; pgstatindex reads btree
    Map<String, String> hash = all.stream().filter(r -> r.get("relname").equals("fresh_hash")).findFirst().orElseThrow();
    assertEquals("hash", hash.get("am"));
    assertEquals("true", hash.get("analysed"));
    // the partitioned index, which pgstatindex refuses, is its leaves' rollup
    Map<String, String> parted = all.stream().filter(r -> r.get("relname").equals("parted_v")).findFirst().orElseThrow();
    assertEquals("I", parted.get("relkind"));
    List<Map<String, String>> rows = all.stream().filter(r -> r.get("am").equals("btree") && r.get("relkind").equals("i"))
        .toList();
    for (Map<String, String> got : rows) {
      String name = got.get("database") + ":" + got.get("schema") + "." + got.get("relname");
      Map<String, String> want = byName.remove(name);
      if (want == null) {
        problems.add(name + ": reported, but pgstatindex did not read it");
        continue;
      }
      for (String column : COLUMNS) {
        if (!sameValue(want.get(column), got.get(column))) {
          problems.add(name + " " + column + ": pgstatindex " + want.get(column) + ", report " + got.get(column));
        }
      }
    }
    byName.keySet().forEach(name -> problems.add(name + ": read by pgstatindex, not reported"));
    assertEquals(List.of(), problems, problems.size() + " difference(s) over " + rows.size() + " rows");
    assertEquals(truth.size(), rows.size());
  }

  @Test
  void scenarioHasTheIntendedStates() {
    Map<String, String> bigMd5 = truthOf("big_md5");
    assertTrue(Integer.parseInt(bigMd5.get("tree_level")) >= 2, "big_md5 " + bigMd5);
    assertTrue(Integer.parseInt(truthOf("big_id").get("tree_level")) >= 1);
    assertTrue(Long.parseLong(truthOf("churn_pkey").get("deleted_pages")) > 0, "churn_pkey " + truthOf("churn_pkey"));
    assertTrue(Double.parseDouble(truthOf("rnd_k").get("leaf_fragmentation")) > 0, "rnd_k " + truthOf("rnd_k"));
    assertEquals("NaN", truthOf("empty_idx").get("avg_leaf_density"));
    assertEquals("NaN", truthOf("empty_idx").get("leaf_fragmentation"));
    assertEquals("1", truthOf("crafted_half_dead").get("empty_pages"));
    // PG 15 counts the all-zero page as internal: crafted_new_page has one more than its twin
    assertEquals(Long.parseLong(truthOf("crafted_half_dead").get("internal_pages")) + 1,
        Long.parseLong(truthOf("crafted_new_page").get("internal_pages")));
    assertEquals(1, scans.get(key("postgres", Long.parseLong(truthOf("crafted_new_page").get("oid"))))
        .sums().read(IndexMeasure.NEW_PAGES));
    assertTrue(Double.parseDouble(truthOf("big_pad_ff50").get("avg_leaf_density")) < 60);
    assertTrue(truth.values().stream().anyMatch(r -> r.get("database").isEmpty()), "shared catalog indexes");
    assertTrue(truth.values().stream().anyMatch(r -> r.get("database").equals(OTHER_DB)));
  }

  private Map<String, String> truthOf(String relname) {
    return truth.values().stream().filter(r -> r.get("database").equals("postgres") && r.get("relname").equals(relname))
        .findFirst().orElseThrow(() -> new AssertionError("no pgstatindex row for " + relname));
  }

  private String relpath(String index) {
    return pg.queryCsv("postgres", "SELECT pg_relation_filepath('" + index + "') AS p").get(0).get("p");
  }

  private static List<String> columns(IndexFigures f) {
    return List.of(Long.toString(f.version()), Long.toString(f.treeLevel()), Long.toString(f.indexSize()),
        Long.toString(f.rootBlockNo()), Long.toString(f.internalPages()), Long.toString(f.leafPages()),
        Long.toString(f.emptyPages()), Long.toString(f.deletedPages()), Double.toString(f.avgLeafDensity()),
        Double.toString(f.leafFragmentation()));
  }

  /** Integers as text; float8 columns by value (PostgreSQL prints 90.1 where Java prints 90.1 too, but 0 as "0"). */
  private static boolean sameValue(String want, String got) {
    if (want.equals(got)) {
      return true;
    }
    try {
      double w = Double.parseDouble(want);
      double g = Double.parseDouble(got);
      return Double.compare(w, g) == 0 || (w == g);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static String key(String database, long oid) {
    return database + "/" + oid;
  }

  /** Appends one all-zero block, as an extension whose WAL never came would leave it. */
  private static void appendNewPage(Path file) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(f.length());
      f.write(new byte[PageHeader.BLCKSZ]);
    }
  }

  /** Sets BTP_HALF_DEAD on the first non-root leaf page and recomputes its checksum. */
  private static void markALeafHalfDead(Path file) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      byte[] page = new byte[PageHeader.BLCKSZ];
      for (long block = 1; block * PageHeader.BLCKSZ < f.length(); block++) {
        f.seek(block * PageHeader.BLCKSZ);
        f.readFully(page);
        int flags = BtreePage.flags(page);
        if ((flags & BtreePage.BTP_LEAF) != 0 && (flags & BtreePage.BTP_ROOT) == 0) {
          int at = PageHeader.special(page) + BtreePage.BTPO_FLAGS_OFFSET;
          int halfDead = flags | BtreePage.BTP_HALF_DEAD;
          page[at] = (byte) halfDead;
          page[at + 1] = (byte) (halfDead >>> 8);
          int checksum = PageChecksum.compute(page, block);
          page[PageHeader.PD_CHECKSUM_OFFSET] = (byte) checksum;
          page[PageHeader.PD_CHECKSUM_OFFSET + 1] = (byte) (checksum >>> 8);
          assertEquals(halfDead, LittleEndian.uint16(page, at));
          f.seek(block * PageHeader.BLCKSZ);
          f.write(page);
          return;
        }
      }
    }
    fail("no non-root leaf page in " + file);
  }
}
