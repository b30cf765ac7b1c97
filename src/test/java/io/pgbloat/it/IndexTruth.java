package io.pgbloat.it;

import io.pgbloat.testing.PostgresCluster;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What PostgreSQL's own functions say of every valid index of one database, as the tool's index
 * report names the same columns: pgstatindex of a btree, pgstathashindex of a hash index,
 * pgstatginindex of a GIN index, and each index's size.
 */
final class IndexTruth {

  /** One access method's function and the report columns it gives. */
  private record Function(String am, String call, List<String> columns) {
  }

  private static final List<Function> FUNCTIONS = List.of(
      new Function("btree", "pgstatindex", List.of("version", "tree_level", "index_size", "root_block_no",
          "internal_pages", "leaf_pages", "empty_pages", "deleted_pages", "avg_leaf_density", "leaf_fragmentation")),
      new Function("hash", "pgstathashindex", List.of("version", "bucket_pages", "overflow_pages", "bitmap_pages",
          "unused_pages", "live_items", "dead_items", "free_percent")),
      new Function("gin", "pgstatginindex", List.of("version", "pending_pages", "pending_tuples")));

  /** Columns the report prints to two decimals, as pgstattuple prints its own per cents. */
  private static final List<String> PERCENT_COLUMNS = List.of("free_percent");

  private static final String QUERY = """
      SELECT current_database() AS database, n.nspname AS schema, c.relname, a.amname AS am,
             pg_relation_size(c.oid) AS size, s.*
        FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_am a ON a.oid = c.relam
        JOIN pg_index i ON i.indexrelid = c.oid,
             LATERAL %s(c.oid::regclass) s
       WHERE c.relkind = 'i' AND a.amname = '%s' AND i.indisvalid AND c.relpersistence <> 't'
         AND n.nspname = 'public'
      """;

  private IndexTruth() {
  }

  /** The truth of the public indexes of {@code db}, on the running cluster. */
  static List<Map<String, String>> take(PostgresCluster pg, String db) {
    List<Map<String, String>> rows = new ArrayList<>();
    for (Function f : FUNCTIONS) {
      rows.addAll(pg.queryCsv(db, String.format(QUERY, f.call(), f.am())));
    }
    return rows;
  }

  /**
   * Every difference between {@code truth} and the tool's index rows, one line each; empty when
   * they agree.
   */
  static List<String> differences(List<Map<String, String>> truth, List<Map<String, String>> toolRows) {
    Map<String, Map<String, String>> reported = new LinkedHashMap<>();
    toolRows.stream().filter(r -> r.get("relkind").equals("i"))
        .forEach(r -> reported.put(r.get("database") + ":" + r.get("schema") + "." + r.get("relname"), r));
    List<String> problems = new ArrayList<>();
    for (Map<String, String> want : truth) {
      Function f = FUNCTIONS.stream().filter(x -> x.am().equals(want.get("am"))).findFirst().orElseThrow();
      String name = want.get("database") + ":" + want.get("schema") + "." + want.get("relname");
      Map<String, String> got = reported.get(name);
      if (got == null) {
        problems.add(name + " (" + f.am() + "): read by " + f.call() + ", not reported");
        continue;
      }
      if (!want.get("size").equals(got.get("index_size"))) {
        problems.add(name + " index_size: pg_relation_size " + want.get("size") + ", report " + got.get("index_size"));
      }
      for (String column : f.columns()) {
        String expected = PERCENT_COLUMNS.contains(column) ? Report.percent(want.get(column)) : want.get(column);
        if (!sameValue(expected, got.get(column))) {
          problems.add(name + " " + column + ": " + f.call() + " " + want.get(column) + ", report " + got.get(column));
        }
      }
    }
    return problems;
  }

  /** Integers as text; float8 columns by value (PostgreSQL prints 0 where Java prints 0.0). */
  static boolean sameValue(String want, String got) {
    if (want == null || got == null) {
      return want == got;
    }
    if (want.equals(got)) {
      return true;
    }
    try {
      return Double.parseDouble(want) == Double.parseDouble(got);
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
