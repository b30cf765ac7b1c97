package io.pgbloat.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The harness against a real server: start, SQL, pgstattuple, clean stop, copy, cleanup. */
class PostgresClusterTest {

  @Test
  void startsQueriesStopsCleanlyAndCleansUp() throws Exception {
    PostgresCluster.assumeServer();
    Path base;
    try (PostgresCluster pg = PostgresCluster.builder().init()) {
      base = pg.baseDir();
      pg.start();
      assertEquals("in production", pg.controlState());

      pg.psql("postgres", """
          CREATE EXTENSION pgstattuple;
          CREATE TABLE t (id int, v text);
          INSERT INTO t SELECT g, md5(g::text) FROM generate_series(1, 1000) g;
          DELETE FROM t WHERE id <= 100;
          """);

      List<Map<String, String>> stats = pg.queryCsv("postgres", "SELECT * FROM pgstattuple('t');");
      assertEquals(1, stats.size());
      Map<String, String> row = stats.get(0);
      assertEquals(List.of("table_len", "tuple_count", "tuple_len", "tuple_percent", "dead_tuple_count",
          "dead_tuple_len", "dead_tuple_percent", "free_space", "free_percent"), List.copyOf(row.keySet()));
      assertEquals("900", row.get("tuple_count"));
      assertEquals("100", row.get("dead_tuple_count"));
      assertEquals(0, Long.parseLong(row.get("table_len")) % 8192);

      // Values with commas, quotes and line breaks survive psql + COPY csv + Csv.
      List<Map<String, String>> tricky = pg.queryCsv("postgres",
          "SELECT 'a,b' AS c1, 'say \"hi\"' AS c2, E'two\\nlines' AS c3, NULL::text AS c4");
      assertEquals(Map.of("c1", "a,b", "c2", "say \"hi\"", "c3", "two\nlines", "c4", ""), tricky.get(0));

      // The server's settings really are the harness's.
      List<Map<String, String>> settings = pg.queryCsv("postgres", "SELECT name, setting FROM pg_settings"
          + " WHERE name IN ('autovacuum', 'wal_level', 'listen_addresses', 'data_checksums') ORDER BY name");
      assertEquals(List.of(
          Map.of("name", "autovacuum", "setting", "off"),
          Map.of("name", "data_checksums", "setting", "on"),
          Map.of("name", "listen_addresses", "setting", ""),
          Map.of("name", "wal_level", "setting", "minimal")), settings);

      pg.stop();
      assertFalse(pg.isRunning());
      assertEquals("shut down", pg.controlState());

      Path copy = base.resolve("copy");
      pg.copyDataDirTo(copy);
      assertTrue(Files.isRegularFile(copy.resolve("global/pg_control")));
      assertEquals(Files.size(pg.dataDir().resolve("global/pg_control")),
          Files.size(copy.resolve("global/pg_control")));

      // It starts again after a clean stop and still has the data.
      pg.start();
      assertEquals("900", pg.queryCsv("postgres", "SELECT count(*) AS n FROM t").get(0).get("n"));
    }
    assertFalse(Files.exists(base), "close() must delete " + base);
  }

  @Test
  void psqlFailureCarriesTheServerMessage() {
    PostgresCluster.assumeServer();
    try (PostgresCluster pg = PostgresCluster.builder().dataChecksums(false).init()) {
      pg.start();
      IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
          () -> pg.psql("postgres", "SELECT 1; SELECT * FROM no_such_table; SELECT 2;"));
      assertTrue(e.getMessage().contains("no_such_table"), e.getMessage());
    }
  }
}
