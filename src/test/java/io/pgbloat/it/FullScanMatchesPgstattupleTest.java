package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pgbloat.testing.Artifacts;
import io.pgbloat.testing.PostgresCluster;
import io.pgbloat.testing.ToolRun;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * End to end, on a real server of each major version 13-18: a cluster with tables in many
 * physical states, stopped; the tool's {@code analyze --full-scan} must print exactly what
 * that version's pgstattuple prints, for every relation of every database, both on the data directory the truth was taken from and on a
 * copy taken before any truth scan (so its hint bits are mostly unset and the tool must look
 * transaction status up in pg_xact / pg_multixact itself).
 *
 * <p>Expected and actual reports are written to {@code target/pgbloat-it/pg<major>/} for inspection.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ParameterizedClass(name = "PostgreSQL {0}")
@MethodSource("io.pgbloat.testing.PostgresInstallation#majors")
class FullScanMatchesPgstattupleTest {

  @Parameter
  int major;
  private Artifacts artifacts;

  private PostgresCluster pg;
  private Path raw;
  private List<Map<String, String>> truth;
  private Map<String, Map<String, String>> pageFacts;
  private String truncatedOid;

  @BeforeParameterizedClassInvocation
  void buildClusterAndTakeTruth() throws IOException {
    PostgresCluster.assumeServer(major);
    artifacts = Artifacts.under("pg" + major);
    pg = PostgresCluster.builder().version(major).dataChecksums(true).init();
    pg.start();
    BloatScenario.build(pg);
    pg.stop(); // CHECKPOINT, fast shutdown, checks "shut down"

    // Before any truth scan: the files exactly as the scenario left them.
    raw = pg.baseDir().resolve("raw");
    pg.copyDataDirTo(raw);

    pg.start();
    truth = Truth.take(pg);
    pageFacts = new LinkedHashMap<>();
    for (Map<String, String> row : pg.queryCsv("postgres", BloatScenario.PAGE_FACTS)) {
      pageFacts.put(row.get("relname"), row);
    }
    truncatedOid = pg.queryCsv("postgres", "SELECT 'truncated'::regclass::oid AS oid").get(0).get("oid");
    pg.stop();

    artifacts.write("expected.csv", Report.toCsv(truth));
  }

  @AfterParameterizedClassInvocation
  void closeCluster() {
    if (pg != null) {
      pg.close();
    }
  }

  @Test
  void scenarioHasTheIntendedStates() {
    List<String> problems = new ArrayList<>();
    for (List<String> rel : BloatScenario.MUST_HAVE_DEAD_TUPLES) {
      Map<String, String> row = truthRow(rel.get(0), rel.get(1), rel.get(2));
      if (row == null || Long.parseLong(row.get("dead_tuple_count")) == 0) {
        problems.add(rel + ": expected dead tuples, truth has " + row);
      }
    }
    for (List<String> owner : BloatScenario.TOAST_MUST_HAVE_DEAD_TUPLES) {
      Map<String, String> row = truth.stream()
          .filter(r -> r.get("database").equals(owner.get(0)) && r.get("toast_of").equals(owner.get(1)))
          .findFirst().orElse(null);
      if (row == null || !"t".equals(row.get("relkind")) || !"pg_toast".equals(row.get("schema"))
          || Long.parseLong(row.get("dead_tuple_count")) == 0) {
        problems.add("toast of " + owner + ": expected a pg_toast table with dead tuples, truth has " + row);
      }
    }
    for (List<String> rel : BloatScenario.MUST_HAVE_NO_DEAD_TUPLES) {
      Map<String, String> row = truthRow(rel.get(0), rel.get(1), rel.get(2));
      if (row == null || Long.parseLong(row.get("dead_tuple_count")) != 0) {
        problems.add(rel + ": expected no dead tuples, truth has " + row);
      }
    }
    expect(problems, "postgres", "public", "empty_table", "table_len", "0");
    expect(problems, "postgres", "public", "one_row", "tuple_count", "1");
    expect(problems, "postgres", "public", "truncated", "tuple_count", "10");
    expect(problems, "postgres", "public", "subxacts", "tuple_count", "900");
    expect(problems, "postgres", "public", "aborted", "dead_tuple_count", "1000");
    expect(problems, "shop", "public", "order_totals", "relkind", "m");
    expect(problems, "shop", "public", "empty_in_shop", "table_len", "0");
    expect(problems, "", "pg_catalog", "pg_database", "relpath", "global/1262");

    Map<String, String> tablespace = truthRow("postgres", "public", "in_tablespace");
    if (tablespace == null || !tablespace.get("relpath").startsWith("pg_tblspc/")) {
      problems.add("in_tablespace: relpath should start with pg_tblspc/, truth has " + tablespace);
    }
    Map<String, String> truncated = truthRow("postgres", "public", "truncated");
    if (truncated != null && truncated.get("relpath").endsWith("/" + truncatedOid)) {
      problems.add("truncated: relfilenode should differ from the oid after TRUNCATE: " + truncated);
    }

    positive(problems, "hot", "lp_redirect");
    positive(problems, "hot", "lp_unused");
    positive(problems, "vacuumed", "lp_unused");
    positive(problems, "mx_update", "multi_updater");
    positive(problems, "mx_update", "xid_lock_only");
    positive(problems, "mx_lock", "multi_lock_only");
    positive(problems, "mx_lock", "xid_lock_only");

    if (!problems.isEmpty()) {
      fail("the scenario did not build the intended states:\n  " + String.join("\n  ", problems));
    }
  }

  @Test
  void fullScanOfTheDataDirectoryMatchesPgstattuple() throws IOException {
    checkTool("pgdata", pg.dataDir());
  }

  @Test
  void fullScanOfTheCopyTakenBeforeTheTruthMatchesPgstattuple() throws IOException {
    checkTool("raw", raw);
  }

  private void checkTool(String variant, Path dataDir) throws IOException {
    ToolRun run = artifacts.fullScanCsv(variant, dataDir.toString());
    String output = run.out();

    List<String> problems = new ArrayList<>();
    if (run.status() != 0) {
      problems.add("exit code " + run.status() + " (expected 0); stderr:\n" + tail(run.err(), 3000));
    }
    problems.addAll(Report.differences(truth, output));
    if (!problems.isEmpty()) {
      int shown = Math.min(problems.size(), 300);
      fail(variant + " (" + dataDir + "): " + problems.size() + " difference(s) from pgstattuple over "
          + truth.size() + " relations; see " + artifacts.dir().toAbsolutePath() + "/{expected,tool-" + variant
          + "}.csv\n  " + String.join("\n  ", problems.subList(0, shown))
          + (shown < problems.size() ? "\n  ... and " + (problems.size() - shown) + " more" : ""));
    }
  }

  private Map<String, String> truthRow(String db, String schema, String relname) {
    return truth.stream()
        .filter(r -> r.get("database").equals(db) && r.get("schema").equals(schema)
            && r.get("relname").equals(relname))
        .findFirst().orElse(null);
  }

  private void expect(List<String> problems, String db, String schema, String relname, String column, String value) {
    Map<String, String> row = truthRow(db, schema, relname);
    if (row == null || !value.equals(row.get(column))) {
      problems.add(db + ":" + schema + "." + relname + ": expected " + column + " = " + value + ", truth has "
          + row);
    }
  }

  private void positive(List<String> problems, String relname, String fact) {
    Map<String, String> facts = pageFacts.get(relname);
    if (facts == null || Long.parseLong(facts.get(fact)) == 0) {
      problems.add(relname + ": expected " + fact + " > 0 on its pages, pageinspect says " + facts);
    }
  }

  private static String tail(String text, int max) {
    return text.length() <= max ? text : "..." + text.substring(text.length() - max);
  }
}
