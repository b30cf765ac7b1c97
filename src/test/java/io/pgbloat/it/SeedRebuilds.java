package io.pgbloat.it;

import io.pgbloat.testing.DirectoryPeak;
import io.pgbloat.testing.PostgresCluster;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What real rebuilds give back on a seed's server, and the disk they take: each public index
 * rebuilt by {@code REINDEX INDEX} in a transaction that is then rolled back (so each is
 * measured against the data the tool read, and a hash build's estimate of its table is not
 * moved by the REINDEX before it), then each public table rewritten by {@code VACUUM FULL},
 * its TOAST table with it, its database directory watched meanwhile. A build writes its
 * table's reltuples and relpages in place, past the rollback: they are put back after each. The horizon pins,
 * prepared transactions that wrote nothing, are rolled back first, so that a deleted tuple is
 * kept only where the tool counts it live. A prepared writer stays: what a rebuild would give
 * back with its inserts and deletes still in progress cannot be measured, since its locks keep
 * every rebuild of its table waiting, and committing or rolling it back would change what the
 * tool read. The tables it holds a lock on and their indexes are left out.
 */
final class SeedRebuilds {

  /**
   * One relation's size before and after its rebuild.
   *
   * @param relation {@code public.name}, or {@code toast of public.name} for a TOAST table
   * @param am the index's access method; empty for a table
   */
  record RebuiltSize(String relation, String am, long before, long after) {
    long reclaimed() {
      return before - after;
    }
  }

  /**
   * A rebuild that waits for a lock fails rather than hangs: only a prepared transaction could
   * hold one, and its tables are left out.
   */
  /**
   * A table's VACUUM FULL: the main forks of its new copies (the table, its TOAST table, the
   * indexes of both) and the most its database directory grew by while it ran, polled
   * ({@link DirectoryPeak}, a lower bound of the true peak).
   *
   * @param relation {@code public.name}
   */
  record RewriteDisk(String relation, long newCopies, long peakGrowth) {
  }

  /** Every rebuild's sizes, and the disk each table's rewrite took. */
  record Rebuilds(List<RebuiltSize> sizes, List<RewriteDisk> rewrites) {
  }

  private static final String LOCK_TIMEOUT = "SET lock_timeout = '60s';\n";

  private static final String PINS = "SELECT gid FROM pg_prepared_xacts WHERE gid LIKE 'pin\\_%'";

  private static final String INDEXES = """
      SELECT c.relname, a.amname, pg_relation_size(c.oid) AS size, h.oid AS heap, h.reltuples, h.relpages,
             h.relallvisible
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_am a ON a.oid = c.relam
        JOIN pg_index i ON i.indexrelid = c.oid JOIN pg_class h ON h.oid = i.indrelid
       WHERE c.relkind = 'i' AND n.nspname = 'public' AND i.indisvalid
         AND NOT EXISTS (SELECT FROM pg_locks l WHERE l.relation = i.indrelid AND l.pid IS NULL)
       ORDER BY c.relname
      """;

  private static final String TABLES = """
      SELECT c.relname, pg_relation_size(c.oid) AS size,
             CASE WHEN c.reltoastrelid <> 0 THEN pg_relation_size(c.reltoastrelid) END AS toast_size,
             %s AS total
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'm') AND n.nspname = 'public'
         AND NOT EXISTS (SELECT FROM pg_locks l WHERE l.relation = c.oid AND l.pid IS NULL)
       ORDER BY c.relname
      """.formatted(TotalSizes.MAIN_FORKS);

  private SeedRebuilds() {
  }

  /** Rebuilds every public index and table of database postgres on the stopped {@code pg}; stops it again. */
  static Rebuilds measure(PostgresCluster pg) {
    pg.start();
    try {
      for (Map<String, String> pin : pg.queryCsv("postgres", PINS)) {
        pg.psql("postgres", "ROLLBACK PREPARED '" + pin.get("gid") + "';");
      }
      List<RebuiltSize> sizes = new ArrayList<>(reindexed(pg));
      List<RewriteDisk> rewrites = new ArrayList<>();
      sizes.addAll(rewritten(pg, rewrites));
      return new Rebuilds(List.copyOf(sizes), List.copyOf(rewrites));
    } finally {
      pg.stop();
    }
  }

  private static List<RebuiltSize> reindexed(PostgresCluster pg) {
    List<Map<String, String>> indexes = pg.queryCsv("postgres", INDEXES);
    StringBuilder script = new StringBuilder(LOCK_TIMEOUT);
    for (Map<String, String> index : indexes) {
      String name = quoted(index.get("relname"));
      script.append("BEGIN;\nREINDEX INDEX ").append(name).append(";\nCOPY (SELECT pg_relation_size('")
          .append(name.replace("'", "''")).append("'::regclass)) TO STDOUT;\nROLLBACK;\n");
      // a build writes its table's reltuples and relpages in place (index_update_stats), which
      // the rollback leaves: put back what the copy held, for the next hash build's estimate
      script.append("UPDATE pg_class SET reltuples = ").append(index.get("reltuples")).append(", relpages = ")
          .append(index.get("relpages")).append(", relallvisible = ").append(index.get("relallvisible"))
          .append(" WHERE oid = ").append(index.get("heap")).append(";\n");
    }
    List<String> after = indexes.isEmpty() ? List.of() : pg.psql("postgres", script.toString()).lines().toList();
    List<RebuiltSize> sizes = new ArrayList<>();
    for (int i = 0; i < indexes.size(); i++) {
      Map<String, String> index = indexes.get(i);
      sizes.add(new RebuiltSize("public." + index.get("relname"), index.get("amname"),
          Long.parseLong(index.get("size")), Long.parseLong(after.get(i))));
    }
    return sizes;
  }

  /** Rewrites every table, adding the disk each took to {@code rewrites}; their sizes before and after. */
  private static List<RebuiltSize> rewritten(PostgresCluster pg, List<RewriteDisk> rewrites) {
    List<Map<String, String>> before = pg.queryCsv("postgres", TABLES);
    Path base = pg.dataDir().resolve("base");
    Path database = base.resolve(pg.queryCsv("postgres",
        "SELECT oid FROM pg_database WHERE datname = current_database()").get(0).get("oid"));
    Map<String, Long> peaks = new HashMap<>();
    for (Map<String, String> table : before) {
      try (DirectoryPeak peak = DirectoryPeak.watch(database, base.resolve("pgsql_tmp"))) {
        pg.psql("postgres", LOCK_TIMEOUT + "VACUUM FULL " + quoted(table.get("relname")) + ";");
        peak.close();
        peaks.put(table.get("relname"), peak.extraBytes());
      }
    }
    Map<String, Map<String, String>> after = pg.queryCsv("postgres", TABLES).stream()
        .collect(Collectors.toMap(row -> row.get("relname"), row -> row));
    List<RebuiltSize> sizes = new ArrayList<>();
    for (Map<String, String> table : before) {
      String name = "public." + table.get("relname");
      Map<String, String> rewritten = after.get(table.get("relname"));
      rewrites.add(new RewriteDisk(name, Long.parseLong(rewritten.get("total")), peaks.get(table.get("relname"))));
      sizes.add(new RebuiltSize(name, "", Long.parseLong(table.get("size")), Long.parseLong(rewritten.get("size"))));
      if (!table.get("toast_size").isEmpty()) {
        sizes.add(new RebuiltSize("toast of " + name, "", Long.parseLong(table.get("toast_size")),
            Long.parseLong(rewritten.get("toast_size"))));
      }
    }
    return sizes;
  }

  private static String quoted(String name) {
    return "public.\"" + name.replace("\"", "\"\"") + "\"";
  }
}
