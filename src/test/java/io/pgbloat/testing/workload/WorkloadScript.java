package io.pgbloat.testing.workload;

import java.util.Locale;

/** Renders a {@link WorkloadPlan} as one SQL script, in the order a server runs it. */
final class WorkloadScript {
  /**
   * A TOASTed value: 100 to 250 md5 strings, 3200 to 8000 characters that pglz barely compresses,
   * so always stored out of line, so that the TOAST pages hold chunks of unlike values, as real
   * ones do. The length is a hash of the row (hashint4, not random(), which would move every later
   * draw), so that neighbouring rows' lengths are unrelated, not a progression.
   */
  private static final String TOASTED = "(SELECT string_agg(md5((g * i)::text), '') FROM generate_series(1, 100"
      + " + (hashint4(g) & 2147483647) % 151) i)";

  private final WorkloadPlan plan;
  private final StringBuilder out = new StringBuilder();

  WorkloadScript(WorkloadPlan plan) {
    this.plan = plan;
  }

  String render() {
    line("-- " + plan.describe());
    if (plan.pinAtStart()) {
      line("BEGIN; SELECT txid_current(); PREPARE TRANSACTION 'pin_start';");
    }
    line("CREATE EXTENSION IF NOT EXISTS pgstattuple;");
    line("CREATE EXTENSION IF NOT EXISTS pageinspect;");
    // setseed takes a value in [-1, 1]
    line(String.format(Locale.ROOT, "SELECT setseed(%.6f);", (Math.floorMod(plan.seed(), 1_000_000) / 1e6)));
    plan.tables().forEach(this::create);
    plan.tables().forEach(this::load);
    if (plan.pinBeforeDeletes()) {
      line("BEGIN; SELECT txid_current(); PREPARE TRANSACTION 'pin_horizon';");
    }
    plan.tables().forEach(this::churn);
    if (plan.preparedWriter()) {
      TablePlan first = plan.tables().get(0);
      line("BEGIN;");
      insert(first, first.rows() + 1, first.rows() + 200);
      line("DELETE FROM " + first.name() + " WHERE id % 17 = 3;");
      line("PREPARE TRANSACTION 'prepared_writer';");
    }
    line("CHECKPOINT;");
    return out.toString();
  }

  private void create(TablePlan t) {
    String columns = "(id int NOT NULL, k int, n int, t text, arr int[], p point" + (t.toast() ? ", big text" : "") + ")";
    String with = t.fillfactor() < 100 && t.partitioning().isEmpty() ? " WITH (fillfactor = " + t.fillfactor() + ")" : "";
    String kind = t.unlogged() ? "CREATE UNLOGGED TABLE " : "CREATE TABLE ";
    switch (t.partitioning()) {
      case "" -> line(kind + t.name() + " " + columns + with + ";");
      case "range" -> {
        line("CREATE TABLE " + t.name() + " " + columns + " PARTITION BY RANGE (id);");
        int half = t.rows() / 2;
        line(partition(t, "a", "FOR VALUES FROM (MINVALUE) TO (" + half + ")"));
        line(partition(t, "b", "FOR VALUES FROM (" + half + ") TO (MAXVALUE)"));
      }
      case "list" -> {
        line("CREATE TABLE " + t.name() + " " + columns + " PARTITION BY LIST ((id % 3));");
        line(partition(t, "a", "FOR VALUES IN (0)"));
        line(partition(t, "b", "FOR VALUES IN (1, 2)"));
      }
      case "hash" -> {
        line("CREATE TABLE " + t.name() + " " + columns + " PARTITION BY HASH (id);");
        for (int i = 0; i < 3; i++) {
          line(partition(t, "h" + i, "FOR VALUES WITH (MODULUS 3, REMAINDER " + i + ")"));
        }
      }
      default -> {
        line("CREATE TABLE " + t.name() + " " + columns + " PARTITION BY RANGE (id);");
        int half = t.rows() / 2;
        line(partition(t, "a", "FOR VALUES FROM (MINVALUE) TO (" + half + ")"));
        line("CREATE TABLE " + t.name() + "_b PARTITION OF " + t.name() + " FOR VALUES FROM (" + half
            + ") TO (MAXVALUE) PARTITION BY HASH (id);");
        for (int i = 0; i < 2; i++) {
          line("CREATE TABLE " + t.name() + "_b" + i + " PARTITION OF " + t.name() + "_b"
              + " FOR VALUES WITH (MODULUS 2, REMAINDER " + i + ");");
        }
      }
    }
  }

  private static String partition(TablePlan t, String suffix, String bound) {
    return "CREATE TABLE " + t.name() + "_" + suffix + " PARTITION OF " + t.name() + " " + bound + ";";
  }

  private void load(TablePlan t) {
    // half the indexes exist before the load (built by inserts), half are built after it
    int before = t.indexes().size() / 2;
    t.indexes().subList(0, before).forEach(i -> line(i.createSql(t.name())));
    insert(t, 1, t.rows());
    t.indexes().subList(before, t.indexes().size()).forEach(i -> line(i.createSql(t.name())));
  }

  private void insert(TablePlan t, int from, int to) {
    String text = "CASE WHEN random() * 100 < " + t.nullPercent() + " THEN NULL ELSE left(repeat(md5(g::text), "
        + (t.width() / 32 + 1) + "), " + t.width() + ") END";
    String big = t.toast() ? ", CASE WHEN g % 5 = 0 THEN " + TOASTED + " END" : "";
    line("INSERT INTO " + t.name() + " SELECT g, (random() * 1000)::int, g, " + text
        + ", ARRAY[g % 50, g % 7, (random() * 1000)::int], point(g % 997, (random() * 100)::int)" + big
        + " FROM generate_series(" + from + ", " + to + ") g;");
  }

  private void churn(TablePlan t) {
    if (t.hotUpdates() > 0) {
      line("UPDATE " + t.name() + " SET n = n + 1 WHERE random() * 100 < " + t.hotUpdates() + ";");
    }
    if (t.coldUpdates() > 0) {
      line("UPDATE " + t.name() + " SET k = k + 1, arr = arr || 1 WHERE random() * 100 < " + t.coldUpdates() + ";");
    }
    if (t.deletes() > 0) {
      line("DELETE FROM " + t.name() + " WHERE random() * 100 < " + t.deletes() + ";");
    }
    switch (t.vacuum()) {
      case "vacuum" -> line("VACUUM " + (t.analyze() ? "ANALYZE " : "") + t.name() + ";");
      case "vacuum-notruncate" -> line("VACUUM (TRUNCATE false" + (t.analyze() ? ", ANALYZE" : "") + ") " + t.name() + ";");
      case "vacuum-truncate" -> line("VACUUM (TRUNCATE true" + (t.analyze() ? ", ANALYZE" : "") + ") " + t.name() + ";");
      default -> {
        if (t.analyze()) {
          line("ANALYZE " + t.name() + ";");
        }
      }
    }
    if (t.reinsert()) {
      insert(t, t.rows() + 1000, t.rows() + 1000 + t.rows() / 5);
    }
  }

  private void line(String sql) {
    out.append(sql).append('\n');
  }
}
