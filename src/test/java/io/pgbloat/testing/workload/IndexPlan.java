package io.pgbloat.testing.workload;

/** One index of a table: its name, method, key expression and reloptions (empty for none). */
public record IndexPlan(String name, String method, String key, String options) {

  /** The CREATE INDEX statement on {@code table}. */
  public String createSql(String table) {
    String with = options.isEmpty() ? "" : " WITH (" + options + ")";
    return "CREATE INDEX " + name + " ON " + table + " USING " + method + " (" + key + ")" + with + ";";
  }
}
