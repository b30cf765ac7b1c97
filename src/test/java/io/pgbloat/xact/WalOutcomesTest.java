package io.pgbloat.xact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.pgbloat.catalog.PostgresVersion;
import io.pgbloat.io.store.HadoopFileStore;
import io.pgbloat.testing.PostgresCluster;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The commit and abort records of a real server's WAL, of every version: a commit with a
 * released and a rolled-back subtransaction and a dropped table (relation and, from 15,
 * dropped-statistics parts), an abort, a COMMIT PREPARED and a ROLLBACK PREPARED of
 * transactions that dropped a table too (their xid after those parts). The xids are read back
 * with pageinspect from the tuples each wrote.
 */
class WalOutcomesTest {

  static List<Integer> majors() {
    return io.pgbloat.testing.PostgresInstallation.majors();
  }

  @ParameterizedTest(name = "PostgreSQL {0}")
  @MethodSource("majors")
  void commitAndAbortRecordsGiveEveryOutcome(int major) throws Exception {
    PostgresCluster.assumeServer(major);
    try (PostgresCluster pg = PostgresCluster.builder().version(major).init()) {
      pg.start();
      pg.psql("postgres", """
          CREATE EXTENSION pageinspect;
          CREATE TABLE w (id int, tag text);
          CREATE TABLE d1 (id int); CREATE TABLE d2 (id int); CREATE TABLE d3 (id int);
          CHECKPOINT;
          BEGIN;
          INSERT INTO w VALUES (1, 'top');
          SAVEPOINT s; INSERT INTO w VALUES (2, 'released'); RELEASE s;
          SAVEPOINT r; INSERT INTO w VALUES (3, 'rolled back'); ROLLBACK TO r;
          DROP TABLE d1;
          COMMIT;
          BEGIN; INSERT INTO w VALUES (4, 'aborted'); ROLLBACK;
          BEGIN; INSERT INTO w VALUES (5, 'commit prepared'); DROP TABLE d2; PREPARE TRANSACTION 'p';
          COMMIT PREPARED 'p';
          BEGIN; INSERT INTO w VALUES (6, 'rollback prepared'); DROP TABLE d3; PREPARE TRANSACTION 'q';
          ROLLBACK PREPARED 'q';
          """);
      Map<Integer, Integer> xminByItem = new HashMap<>();
      for (Map<String, String> row : pg.queryCsv("postgres",
          "SELECT lp, t_xmin FROM heap_page_items(get_raw_page('w', 0))")) {
        xminByItem.put(Integer.parseInt(row.get("lp")), Integer.parseUnsignedInt(row.get("t_xmin")));
      }
      String redo = pg.queryCsv("postgres", "SELECT redo_lsn FROM pg_control_checkpoint()").get(0).get("redo_lsn");
      long start = Long.parseUnsignedLong(redo.split("/")[0], 16) << 32 | Long.parseUnsignedLong(redo.split("/")[1], 16);

      WalOutcomes outcomes;
      try (HadoopFileStore files = HadoopFileStore.open(pg.dataDir().toString(), new Configuration())) {
        outcomes = WalOutcomes.read(files, PostgresVersion.valueOf("PG" + major).wal(), start);
      }
      assertEquals(XidStatus.COMMITTED, outcomes.of(xminByItem.get(1)), "top-level commit");
      assertEquals(XidStatus.COMMITTED, outcomes.of(xminByItem.get(2)), "released subtransaction");
      assertEquals(XidStatus.ABORTED, outcomes.of(xminByItem.get(3)), "rolled-back subtransaction");
      assertEquals(XidStatus.ABORTED, outcomes.of(xminByItem.get(4)), "abort");
      assertEquals(XidStatus.COMMITTED, outcomes.of(xminByItem.get(5)), "COMMIT PREPARED");
      assertEquals(XidStatus.ABORTED, outcomes.of(xminByItem.get(6)), "ROLLBACK PREPARED");
      assertNull(outcomes.of(xminByItem.get(6) + 1000), "no outcome for a transaction never run");
      pg.stop();
    }
  }
}
