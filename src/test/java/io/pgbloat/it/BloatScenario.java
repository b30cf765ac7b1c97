package io.pgbloat.it;

import io.pgbloat.testing.PostgresCluster;
import java.nio.file.Path;
import java.util.List;

/**
 * Builds tables in known physical states in databases {@code postgres} and {@code shop}.
 *
 * <h2>Why the order matters</h2>
 * A seq scan in page mode or an index fetch prunes a page whose {@code pd_prune_xid} is older
 * than the xmin horizon and whose free space is low (pgstattuple's own scan does not: it is not
 * in page mode). The statements that make dead tuples scan their tables, and every connection
 * and query reads the catalogs through indexes. If anything were pruned after the raw copy, the
 * truth taken on the live cluster would no longer describe that copy. So, per database:
 * <ol>
 * <li>everything that must be dead and gone is made first and VACUUMed, and so is every system
 * catalog (DDL leaves dead catalog rows);</li>
 * <li>then a prepared transaction with an xid ({@code pin_<db>}) holds that database's horizon
 * (a prepared transaction holds back only its own database, plus the shared catalogs);</li>
 * <li>then the dead tuples that must be counted are made. Their pages get a {@code pd_prune_xid}
 * newer than the pin, so no access can prune them while the pin exists.</li>
 * </ol>
 * The pins stay prepared through the truth scans and the final shutdown. Rolling them back
 * before the raw copy was tried: catalog reads at the next connection then pruned
 * pg_attribute in {@code shop}, and the raw copy no longer matched the truth. The pins carry
 * no tuples, so an offline reader sees them only as prepared xids that no tuple refers to.
 */
final class BloatScenario {

  static final String SHOP = "shop";

  private BloatScenario() {
  }

  /** Vacuums every system catalog of the current database (and the shared ones). */
  static final String VACUUM_CATALOGS = """
      SELECT format('VACUUM %s', c.oid::regclass)
        FROM pg_class c
       WHERE c.relkind IN ('r', 'm')
         AND c.relnamespace IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
       ORDER BY c.oid
      \\gexec
      """;

  private static String pin(String db) {
    return "BEGIN; SELECT pg_current_xact_id(); PREPARE TRANSACTION 'pin_" + db + "';\n";
  }

  /** Builds every state; the cluster must be running and fresh. */
  static void build(PostgresCluster pg) {
    // template1 is reported by the tool too, so it needs pgstattuple for the truth; creating
    // it before CREATE DATABASE shop means shop inherits it.
    pg.psql("template1", "CREATE EXTENSION pgstattuple;\n" + VACUUM_CATALOGS);

    Path tablespaceDir = pg.newServerDirectory("tblspc_scratch");
    pg.psql("postgres", """
        CREATE EXTENSION pgstattuple;
        CREATE EXTENSION pageinspect;
        CREATE DATABASE shop;
        CREATE TABLESPACE scratch LOCATION '%s';
        """.formatted(tablespaceDir));

    pg.psql("postgres", POSTGRES_BEFORE_PIN + VACUUM_CATALOGS + pin("postgres") + POSTGRES_AFTER_PIN);
    pg.psql(SHOP, SHOP_BEFORE_PIN + VACUUM_CATALOGS + pin(SHOP) + SHOP_AFTER_PIN);
  }

  private static final String POSTGRES_BEFORE_PIN = """
      SELECT setseed(0.25);

      CREATE TABLE plain (id int, v text);
      INSERT INTO plain SELECT g, md5(g::text) FROM generate_series(1, 10000) g;

      CREATE TABLE deletes (id int, v text);
      INSERT INTO deletes SELECT g, md5(g::text) FROM generate_series(1, 10000) g;

      -- the index on v makes every update of v non-HOT: new versions go to the end
      CREATE TABLE updates (id int, v text);
      CREATE INDEX updates_v ON updates (v);
      INSERT INTO updates SELECT g, md5(g::text) FROM generate_series(1, 10000) g;

      -- HOT chains: rounds of updates of a non-indexed column; each round prunes the
      -- previous one's versions (LP_REDIRECT + LP_UNUSED); VACUUM clears the last one
      CREATE TABLE hot (id int PRIMARY KEY, n int NOT NULL, pad text) WITH (fillfactor = 70);
      INSERT INTO hot SELECT g, 0, repeat('x', 40) FROM generate_series(1, 3000) g;
      UPDATE hot SET n = n + 1;
      UPDATE hot SET n = n + 1;
      UPDATE hot SET n = n + 1 WHERE id % 2 = 0;
      VACUUM hot;

      -- 3 to 9 KB of md5 hex per row, stored out of line uncompressed
      CREATE TABLE toasty (id int PRIMARY KEY, body text);
      ALTER TABLE toasty ALTER COLUMN body SET STORAGE EXTERNAL;
      INSERT INTO toasty
      SELECT g, (SELECT string_agg(md5(g || ':' || j), '') FROM generate_series(1, 94 + (g * 7919) % 188) j)
        FROM generate_series(1, 200) g;

      CREATE TABLE vacuumed (id int, v text);
      INSERT INTO vacuumed SELECT g, md5(g::text) FROM generate_series(1, 5000) g;
      DELETE FROM vacuumed WHERE random() < 0.2;
      VACUUM vacuumed;

      CREATE TABLE frozen (id int, v text);
      INSERT INTO frozen SELECT g, md5(g::text) FROM generate_series(1, 5000) g;
      VACUUM FREEZE frozen;

      CREATE TABLE aborted (id int, v text);
      INSERT INTO aborted SELECT g, md5(g::text) FROM generate_series(1, 3000) g;

      CREATE TABLE subxacts (id int, v text);

      CREATE TABLE mx_update (id int PRIMARY KEY, nonkey int NOT NULL, pad text);
      INSERT INTO mx_update SELECT g, 0, md5(g::text) FROM generate_series(1, 2000) g;

      CREATE TABLE mx_lock (id int PRIMARY KEY, v int NOT NULL);
      INSERT INTO mx_lock SELECT g, g FROM generate_series(1, 2000) g;

      CREATE TABLE empty_table (id int, v text);

      CREATE TABLE one_row (id int, v text);
      INSERT INTO one_row VALUES (1, 'only');

      CREATE TABLE truncated (id int, v text);
      INSERT INTO truncated SELECT g, md5(g::text) FROM generate_series(1, 1000) g;

      CREATE TABLE in_tablespace (id int, v text) TABLESPACE scratch;
      INSERT INTO in_tablespace SELECT g, md5(g::text) FROM generate_series(1, 2000) g;

      CREATE UNLOGGED TABLE unlogged (id int, v text);
      INSERT INTO unlogged SELECT g, md5(g::text) FROM generate_series(1, 2000) g;
      """;

  private static final String POSTGRES_AFTER_PIN = """
      SELECT setseed(0.5);

      DELETE FROM deletes WHERE random() < 0.2;
      BEGIN; DELETE FROM deletes WHERE id > 9000; ROLLBACK;   -- aborted xmax: still live

      UPDATE updates SET v = v || '-u' WHERE random() < 0.1;

      UPDATE hot SET n = n + 1 WHERE id % 3 = 0;

      DELETE FROM toasty WHERE id % 4 = 0;

      DELETE FROM frozen WHERE random() < 0.1;

      BEGIN;
      INSERT INTO aborted SELECT g, md5(g::text) FROM generate_series(3001, 4000) g;
      ROLLBACK;

      BEGIN;
      INSERT INTO subxacts SELECT g, 'top' FROM generate_series(1, 500) g;
      SAVEPOINT a;
      INSERT INTO subxacts SELECT g, 'aborted sub' FROM generate_series(501, 1000) g;
      ROLLBACK TO a;
      SAVEPOINT b;
      INSERT INTO subxacts SELECT g, 'committed sub' FROM generate_series(1001, 1500) g;
      RELEASE b;
      SAVEPOINT c;
      DELETE FROM subxacts WHERE id <= 100;
      ROLLBACK TO c;
      SAVEPOINT d;
      DELETE FROM subxacts WHERE id > 1400;
      RELEASE d;
      COMMIT;

      -- a key-share locker (prepared, so it outlives its session) plus a non-key updater:
      -- the old versions get a MultiXact xmax with both, the new ones the locker's xid
      BEGIN;
      SELECT count(*) FROM (SELECT id FROM mx_update WHERE id <= 300 FOR KEY SHARE) s;
      PREPARE TRANSACTION 'lock_postgres';
      UPDATE mx_update SET nonkey = nonkey + 1 WHERE id <= 300;
      COMMIT PREPARED 'lock_postgres';

      -- two share lockers on the same rows: a lock-only MultiXact (one commits, one aborts)
      BEGIN;
      SELECT count(*) FROM (SELECT id FROM mx_lock WHERE id <= 300 FOR SHARE) s;
      PREPARE TRANSACTION 'share1_postgres';
      BEGIN;
      SELECT count(*) FROM (SELECT id FROM mx_lock WHERE id <= 300 FOR SHARE) s;
      PREPARE TRANSACTION 'share2_postgres';
      COMMIT PREPARED 'share1_postgres';
      ROLLBACK PREPARED 'share2_postgres';
      -- and a plain lock-only xid xmax
      BEGIN;
      SELECT count(*) FROM (SELECT id FROM mx_lock WHERE id BETWEEN 301 AND 400 FOR UPDATE) s;
      COMMIT;

      TRUNCATE truncated;
      INSERT INTO truncated SELECT g, md5(g::text) FROM generate_series(1, 10) g;
      """;

  private static final String SHOP_BEFORE_PIN = """
      SELECT setseed(0.75);

      CREATE SCHEMA sales;

      CREATE TABLE sales.customers (id int PRIMARY KEY, name text NOT NULL, notes text);
      ALTER TABLE sales.customers ALTER COLUMN notes SET STORAGE EXTERNAL;
      INSERT INTO sales.customers
      SELECT g, 'customer ' || g,
           (SELECT string_agg(md5('c' || g || ':' || j), '') FROM generate_series(1, 94 + (g * 31) % 188) j)
        FROM generate_series(1, 150) g;

      CREATE TABLE sales.orders (id int PRIMARY KEY, customer_id int NOT NULL,
                     amount numeric(10, 2) NOT NULL, status text NOT NULL);
      CREATE INDEX orders_status ON sales.orders (status);
      INSERT INTO sales.orders SELECT g, 1 + g % 150, (g % 997) / 10.0, 'new' FROM generate_series(1, 8000) g;

      CREATE TABLE audit_log (id int, msg text);
      INSERT INTO audit_log SELECT g, 'event ' || g FROM generate_series(1, 2000) g;
      """;

  private static final String SHOP_AFTER_PIN = """
      SELECT setseed(0.125);

      DELETE FROM sales.orders WHERE random() < 0.2;
      UPDATE sales.orders SET status = 'shipped' WHERE random() < 0.1;  -- indexed: non-HOT
      DELETE FROM sales.customers WHERE id % 5 = 0;

      BEGIN;
      INSERT INTO audit_log SELECT g, 'rolled back ' || g FROM generate_series(2001, 2500) g;
      ROLLBACK;

      CREATE MATERIALIZED VIEW order_totals AS
      SELECT customer_id, count(*) AS orders, sum(amount) AS total FROM sales.orders GROUP BY customer_id;
      REFRESH MATERIALIZED VIEW order_totals;

      CREATE TABLE empty_in_shop (id int);
      """;

  /** Relations (database, schema, relname) whose truth must show dead tuples. */
  static final List<List<String>> MUST_HAVE_DEAD_TUPLES = List.of(
      List.of("postgres", "public", "deletes"),
      List.of("postgres", "public", "updates"),
      List.of("postgres", "public", "hot"),
      List.of("postgres", "public", "toasty"),
      List.of("postgres", "public", "frozen"),
      List.of("postgres", "public", "aborted"),
      List.of("postgres", "public", "subxacts"),
      List.of("postgres", "public", "mx_update"),
      List.of(SHOP, "sales", "orders"),
      List.of(SHOP, "sales", "customers"),
      List.of(SHOP, "public", "audit_log"));

  /** Toast tables (by owner "schema.table") whose truth must show dead tuples. */
  static final List<List<String>> TOAST_MUST_HAVE_DEAD_TUPLES = List.of(
      List.of("postgres", "public.toasty"),
      List.of(SHOP, "sales.customers"));

  /** Relations whose truth must show no dead tuples at all. */
  static final List<List<String>> MUST_HAVE_NO_DEAD_TUPLES = List.of(
      List.of("postgres", "public", "plain"),
      List.of("postgres", "public", "vacuumed"),
      List.of("postgres", "public", "mx_lock"),
      List.of("postgres", "public", "empty_table"),
      List.of("postgres", "public", "one_row"),
      List.of("postgres", "public", "truncated"),
      List.of("postgres", "public", "in_tablespace"),
      List.of("postgres", "public", "unlogged"),
      List.of(SHOP, "public", "order_totals"));

  /**
   * Line-pointer and infomask counts per table, read with pageinspect (which never prunes),
   * to prove the intended physical states exist: LP_REDIRECT/LP_UNUSED, MultiXact xmax, etc.
   */
  static final String PAGE_FACTS = """
      SELECT r.relname,
           count(*) FILTER (WHERE p.lp_flags = 0) AS lp_unused,
           count(*) FILTER (WHERE p.lp_flags = 2) AS lp_redirect,
           count(*) FILTER (WHERE (p.t_infomask & 4096) <> 0 AND (p.t_infomask & 128) = 0) AS multi_updater,
           count(*) FILTER (WHERE (p.t_infomask & 4096) <> 0 AND (p.t_infomask & 128) <> 0) AS multi_lock_only,
           count(*) FILTER (WHERE (p.t_infomask & 4096) = 0 AND (p.t_infomask & 128) <> 0) AS xid_lock_only
        FROM (VALUES ('hot'), ('vacuumed'), ('mx_update'), ('mx_lock')) r(relname)
       CROSS JOIN LATERAL generate_series(0, (pg_relation_size(r.relname::regclass) / 8192)::int - 1) b
       CROSS JOIN LATERAL heap_page_items(get_raw_page(r.relname, b)) p
       GROUP BY r.relname
       ORDER BY r.relname
      """;
}
