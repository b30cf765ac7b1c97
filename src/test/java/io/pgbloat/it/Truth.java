package io.pgbloat.it;

import static io.pgbloat.page.PageHeader.BLCKSZ;

import io.pgbloat.testing.PostgresCluster;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What pgstattuple says about every relation with heap storage, in the tool's report format.
 *
 * <p>Covers every database but template0 and all schemas, catalogs and TOAST included, as the
 * tool does. Shared catalogs show up in every database; they are reported once, with an empty
 * database column. The scan runs twice: the first pass sets hint bits (which never change
 * pgstattuple's figures), the second is the truth, and the two must agree, which shows that
 * nothing was pruned or otherwise changed under the scan.
 */
final class Truth {

  private static final String QUERY = """
      SELECT n.nspname AS schema, c.relname, c.relkind, c.relisshared,
           pg_relation_filepath(c.oid) AS relpath,
           coalesce(o_n.nspname || '.' || o.relname, '') AS toast_of,
           t.*
        FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        LEFT JOIN pg_class o ON o.reltoastrelid = c.oid
        LEFT JOIN pg_namespace o_n ON o_n.oid = o.relnamespace
       CROSS JOIN LATERAL pgstattuple(c.oid::regclass) t
       WHERE c.relkind IN ('r', 't', 'm') AND c.relpersistence <> 't'
       ORDER BY n.nspname, c.relname
      """;

  private Truth() {
  }

  /** The databases the tool reports on. */
  static List<String> databases(PostgresCluster pg) {
    return pg.queryCsv("postgres", "SELECT datname FROM pg_database WHERE datname <> 'template0' ORDER BY datname")
        .stream().map(row -> row.get("datname")).toList();
  }

  /** Takes the truth (two passes, which must agree) on the running cluster. */
  static List<Map<String, String>> take(PostgresCluster pg) {
    return take(pg, Set.of());
  }

  /**
   * {@link #take(PostgresCluster)} of every database but {@code leftOut}, e.g. one a load wrote
   * while the copy was taken, whose pages nothing holds from pruning.
   */
  static List<Map<String, String>> take(PostgresCluster pg, Set<String> leftOut) {
    List<String> databases = databases(pg).stream().filter(db -> !leftOut.contains(db)).toList();
    Map<String, List<Map<String, String>>> first = scan(pg, databases);
    Map<String, List<Map<String, String>>> second = scan(pg, databases);
    if (!first.equals(second)) {
      throw new AssertionError("pgstattuple changed between two passes; something pruned or wrote pages:\n"
          + String.join("\n", changes(first, second)));
    }
    return toReport(second);
  }

  /**
   * The truth of a pgBackRest backup: {@code pgbackrest} (given its arguments, it runs pgBackRest on
   * the backup's repository and stanza) restores backup {@code label} into a new directory of
   * {@code pg} named {@code name}, recovered only to its consistency point, and the truth is taken
   * on the restored cluster.
   */
  static List<Map<String, String>> ofPgBackRestRestore(PostgresCluster pg, String name, String label,
      Consumer<String[]> pgbackrest) {
    Path target = pg.newServerDirectory(name);
    Path tablespaces = pg.newServerDirectory(name + "-tablespaces");
    pgbackrest.accept(new String[] {"restore", "--set=" + label, "--pg1-path=" + target,
        "--tablespace-map-all=" + tablespaces, "--type=immediate", "--target-action=promote"});
    try (PostgresCluster restored = PostgresCluster.onDataDirectory(target)) {
      restored.start();
      restored.awaitEndOfRecovery();
      return take(restored);
    }
  }

  private static Map<String, List<Map<String, String>>> scan(PostgresCluster pg, List<String> databases) {
    Map<String, List<Map<String, String>>> byDatabase = new LinkedHashMap<>();
    for (String db : databases) {
      byDatabase.put(db, pg.queryCsv(db, QUERY));
    }
    return byDatabase;
  }

  private static List<Map<String, String>> toReport(Map<String, List<Map<String, String>>> byDatabase) {
    List<Map<String, String>> report = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    byDatabase.forEach((db, rows) -> {
      for (Map<String, String> row : rows) {
        boolean shared = "t".equals(row.get("relisshared"));
        Map<String, String> out = new LinkedHashMap<>();
        out.put("database", shared ? "" : db);
        out.put("schema", row.get("schema"));
        out.put("relname", row.get("relname"));
        if (!seen.add(Report.key(out))) {
          continue; // a shared catalog, already taken from an earlier database
        }
        long tableLen = Long.parseLong(row.get("table_len"));
        out.put("relkind", row.get("relkind"));
        out.put("relpath", row.get("relpath"));
        out.put("toast_of", row.get("toast_of"));
        out.put("blocks", Long.toString(tableLen / BLCKSZ));
        out.put("scanned_blocks", Long.toString(tableLen / BLCKSZ));
        out.put("table_len", row.get("table_len"));
        out.put("tuple_count", row.get("tuple_count"));
        out.put("tuple_len", row.get("tuple_len"));
        out.put("tuple_percent", Report.percent(row.get("tuple_percent")));
        out.put("dead_tuple_count", row.get("dead_tuple_count"));
        out.put("dead_tuple_len", row.get("dead_tuple_len"));
        out.put("dead_tuple_percent", Report.percent(row.get("dead_tuple_percent")));
        out.put("free_space", row.get("free_space"));
        out.put("free_percent", Report.percent(row.get("free_percent")));
        out.put("bad_pages", "0");
        report.add(out);
      }
    });
    return report;
  }

  private static List<String> changes(Map<String, List<Map<String, String>>> first,
      Map<String, List<Map<String, String>>> second) {
    List<String> lines = new ArrayList<>();
    first.forEach((db, rows) -> {
      List<Map<String, String>> again = second.get(db);
      for (int i = 0; i < Math.max(rows.size(), again.size()); i++) {
        Map<String, String> a = i < rows.size() ? rows.get(i) : null;
        Map<String, String> b = i < again.size() ? again.get(i) : null;
        if (a == null || !a.equals(b)) {
          lines.add(db + ": pass 1 " + a + "\n" + " ".repeat(db.length()) + "  pass 2 " + b);
        }
      }
    });
    return lines;
  }
}
