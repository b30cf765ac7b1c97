package io.pgbloat.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every fetched major starts, has pgstattuple, accepts the harness's settings and stops cleanly
 * (as judged by the system's pg_controldata 15). The first run downloads each version once;
 * later runs take a few seconds per version.
 */
class PostgresInstallationTest {

  @ParameterizedTest(name = "PostgreSQL {0}")
  @ValueSource(ints = {13, 14, 16, 17, 18})
  void startsQueriesAndStopsCleanly(int major) throws Exception {
    PostgresCluster.assumeServer(major);
    try (PostgresCluster pg = PostgresCluster.builder().version(major).init()) {
      assertEquals(major, pg.major());
      pg.start();
      assertEquals("in production", pg.controlState());
      String versionNum = pg.queryCsv("postgres", "SELECT current_setting('server_version_num') AS v").get(0).get("v");
      assertTrue(versionNum.startsWith(Integer.toString(major)), versionNum);

      pg.psql("postgres", "CREATE EXTENSION pgstattuple");
      List<Map<String, String>> stats = pg.queryCsv("postgres", "SELECT * FROM pgstattuple('pg_class')");
      assertEquals(1, stats.size());
      assertTrue(Long.parseLong(stats.get(0).get("tuple_count")) > 0, stats.toString());

      // The builder's settings took (a refused one would have stopped the server from starting).
      assertEquals(List.of(
          Map.of("name", "autovacuum", "setting", "off"),
          Map.of("name", "data_checksums", "setting", "on"),
          Map.of("name", "wal_level", "setting", "minimal")),
          pg.queryCsv("postgres", "SELECT name, setting FROM pg_settings"
              + " WHERE name IN ('autovacuum', 'wal_level', 'data_checksums') ORDER BY name"));

      pg.stop();
      assertFalse(pg.isRunning());
      assertEquals("shut down", pg.controlState());
      assertEquals(Integer.toString(major),
          Files.readString(pg.dataDir().resolve("PG_VERSION"), StandardCharsets.US_ASCII).strip());
    }
  }

  /** 18's initdb turns checksums on by default, so off must be asked for. */
  @Test
  void checksumsCanBeTurnedOffOn18() {
    PostgresCluster.assumeServer(18);
    try (PostgresCluster pg = PostgresCluster.builder().version(18).dataChecksums(false).init()) {
      pg.start();
      assertEquals("off", pg.queryCsv("postgres", "SELECT current_setting('data_checksums') AS v").get(0).get("v"));
      pg.stop();
    }
  }

  @Test
  void refusesAnUnknownMajor() {
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> PostgresCluster.builder().version(12));
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> PostgresInstallation.binDir(19));
  }
}
