package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.testing.Csv;
import io.pgbloat.testing.PostgresCluster;
import io.pgbloat.testing.ToolRun;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Only heap tables are read as heap: a table of another table access method (here one made
 * with heap's own handler under another name, as an extension's would be) is named in a
 * warning and left out, never decoded as if its pages were heap pages.
 */
class TableAccessMethodsTest {

  @Test
  void aTableOfAnotherAccessMethodIsNamedAndLeftOut() {
    PostgresCluster.assumeServer();
    try (PostgresCluster pg = PostgresCluster.builder().init()) {
      pg.start();
      pg.psql("postgres", """
          CREATE ACCESS METHOD other_am TYPE TABLE HANDLER heap_tableam_handler;
          CREATE TABLE on_heap (id int);
          CREATE TABLE on_other (id int) USING other_am;
          INSERT INTO on_heap SELECT generate_series(1, 100);
          INSERT INTO on_other SELECT generate_series(1, 100);
          """);
      pg.stop();
      ToolRun run = ToolRun.of("analyze", "--data-dir", pg.dataDir().toString(), "--database", "postgres",
          "--table", "public.*", "--full-scan", "--format", "csv", "--master", "local[1]");
      assertEquals(0, run.status(), run.describe());
      List<String> names = Csv.parseWithHeader(run.out()).stream().map(r -> r.get("relname")).toList();
      assertEquals(List.of("on_heap"), names);
      assertTrue(run.err().contains("warning: postgres:public.on_other: its table access method is other_am, not heap"),
          run.err());
      Map<String, String> heap = Csv.parseWithHeader(run.out()).get(0);
      assertEquals("100", heap.get("tuple_count"));
    }
  }
}
