package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.cli.Main;
import io.pgbloat.testing.Csv;
import io.pgbloat.testing.SampleData;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The actions of a full scan of the shipped sample, with thresholds low enough for its small
 * tables (8 kB and 10 %): each follows from the row's own figures, for tables and indexes.
 */
class ActionsOnSampleTest {
  private static final long MIN_BYTES = 8192;
  private static final double MIN_PERCENT = 10;

  @Test
  void everyActionFollowsFromTheRowsFigures(@TempDir Path dir) throws Exception {
    Path indexes = dir.resolve("indexes.csv");
    List<Map<String, String>> tables = Csv.parseWithHeader(run("--format", "csv", "--indexes", "--index-output",
        indexes.toString()));
    int rewrites = 0;
    for (Map<String, String> t : tables) {
      double reclaimable = Double.parseDouble(t.get("reclaimable_bytes"));
      double percent = Double.parseDouble(t.get("reclaimable_percent"));
      double dead = Double.parseDouble(t.get("dead_tuple_len"));
      double deadPercent = Double.parseDouble(t.get("dead_tuple_percent"));
      boolean small = Long.parseLong(t.get("table_len")) < MIN_BYTES;
      String expected = t.get("relkind").equals("p") || small ? "none"
          : reclaimable >= MIN_BYTES && percent >= MIN_PERCENT ? "rewrite"
          : dead >= MIN_BYTES && deadPercent >= MIN_PERCENT ? "vacuum" : "none";
      assertEquals(expected, t.get("action"), t.get("schema") + "." + t.get("relname") + ": " + t.get("action_reason"));
      if (expected.equals("rewrite")) {
        rewrites++;
        // a full scan is exact: the new copy is the table less what it gives back
        assertEquals(Long.parseLong(t.get("table_len")) - (long) reclaimable, Long.parseLong(t.get("rewrite_needs_bytes")));
      } else {
        assertEquals("", t.get("rewrite_needs_bytes"));
      }
    }
    assertTrue(rewrites > 0, "the sample has tables a rewrite pays for at these thresholds");

    int reindexes = 0;
    for (Map<String, String> i : Csv.parseWithHeader(Files.readString(indexes))) {
      String reclaimableCell = i.get("reclaimable_bytes");
      long size = Long.parseLong(i.get("index_size"));
      boolean passes = !reclaimableCell.isEmpty() && size >= MIN_BYTES
          && Double.parseDouble(reclaimableCell) >= MIN_BYTES
          && 100.0 * Double.parseDouble(reclaimableCell) / size >= MIN_PERCENT;
      assertEquals(passes ? "reindex" : "none", i.get("action"), i.get("relname") + ": " + i.get("action_reason"));
      if (passes) {
        reindexes++;
        boolean catalog = i.get("schema").equals("pg_catalog");
        assertTrue(i.get("action_reason").startsWith(catalog ? "REINDEX INDEX (a system catalog's: not CONCURRENTLY)"
            : "REINDEX INDEX CONCURRENTLY"), i.get("action_reason"));
      }
    }
    assertTrue(reindexes > 0, "the sample has indexes a REINDEX pays for at these thresholds");
  }

  /** The HTML page's figures tables carry each row's action too, the same as the CSV's. */
  @Test
  void theHtmlTablesShowEachRowsAction(@TempDir Path dir) throws Exception {
    Path indexes = dir.resolve("indexes.csv");
    String csv = run("--format", "csv", "--indexes", "--index-output", indexes.toString());
    String page = run("--format", "html", "--indexes");
    String ranked = section(page, "ranked-table");
    String indexTable = section(page, "index-table");
    for (Map<String, String> t : Csv.parseWithHeader(csv)) {
      String name = t.get("schema") + "." + t.get("relname");
      int at = ranked.indexOf(">" + name + "<");
      if (at >= 0) { // the ranked table lists the top relations only
        assertEquals(t.get("action"), actionCell(ranked, at), name);
      }
    }
    int listed = 0;
    for (Map<String, String> i : Csv.parseWithHeader(Files.readString(indexes))) {
      String name = i.get("schema") + "." + i.get("relname");
      int at = indexTable.indexOf(">" + name + "<");
      assertTrue(at >= 0, name + " is not in the index table");
      assertEquals(i.get("action"), actionCell(indexTable, at), name);
      listed++;
    }
    assertTrue(listed > 0 && ranked.contains(">rewrite</td>") && indexTable.contains(">reindex</td>"),
        "the tables hold rewrites and reindexes");
  }

  /** The tool's standard output on the sample's database shop, read whole, at this test's thresholds. */
  private static String run(String... extra) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> args = new java.util.ArrayList<>(List.of("analyze", "--data-dir", SampleData.dataDir().toString(),
        "--database", "shop", "--full-scan", "--master", "local[1]", "--min-wasted", "8kB", "--min-percent", "10"));
    args.addAll(List.of(extra));
    int status = Main.run(args.toArray(String[]::new), new PrintStream(out, true), new PrintStream(err, true));
    assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
    return out.toString(StandardCharsets.UTF_8);
  }

  private static String section(String page, String id) {
    int start = page.indexOf("id=\"" + id + "\"");
    assertTrue(start >= 0, id + " is missing");
    return page.substring(start, page.indexOf("</table>", start));
  }

  /** The text of the action cell in the row holding {@code at}. */
  private static String actionCell(String table, int at) {
    int cell = table.indexOf("<td class=\"action\"", at);
    assertTrue(cell >= 0 && cell < table.indexOf("</tr>", at), "the row has no action cell");
    int text = table.indexOf('>', cell) + 1;
    return table.substring(text, table.indexOf("</td>", text));
  }
}
