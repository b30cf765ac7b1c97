package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pgbloat.testing.Csv;
import io.pgbloat.testing.PostgresCluster;
import io.pgbloat.testing.ToolRun;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables whose names carry commas, quotes, a newline, a tab, HTML and shell metacharacters and
 * non-ASCII, made by a real PostgreSQL 15: every format of the report carries them intact where
 * it can (CSV quoted, JSON escaped, the HTML page well-formed with the names as text) and
 * visible but harmless on the terminal (no raw newline or tab in a row).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileNamesTest {
  private static final String SCHEMA = "sch;$(id)";
  private static final List<String> TABLES = List.of("we,ird \"quoted\" name", "new\nline\ttab",
      "<script>alert(1)</script>", "`rm -rf /` | & > x", "ünïcødé 表");

  private PostgresCluster pg;

  @BeforeAll
  void makeTables() {
    PostgresCluster.assumeServer();
    pg = PostgresCluster.builder().dataChecksums(true).init();
    pg.start();
    StringBuilder sql = new StringBuilder("CREATE SCHEMA " + ident(SCHEMA) + ";");
    for (String t : TABLES) {
      String name = ident(SCHEMA) + "." + ident(t);
      sql.append("CREATE TABLE ").append(name).append(" (id int PRIMARY KEY, v text);")
          .append("INSERT INTO ").append(name).append(" SELECT g, md5(g::text) FROM generate_series(1, 500) g;")
          .append("DELETE FROM ").append(name).append(" WHERE id % 3 = 0;");
    }
    pg.psql("postgres", sql.toString());
    pg.stop();
  }

  @AfterAll
  void close() {
    if (pg != null) {
      pg.close();
    }
  }

  private static String ident(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  private ToolRun run(String format, Path output, String... more) {
    List<String> args = new java.util.ArrayList<>(List.of("analyze", "--data-dir", pg.dataDir().toString(),
        "--database", "postgres", "--table", "sch*.*", "--format", format, "--master", "local[1]", "--output",
        output.toString()));
    args.addAll(List.of(more));
    return ToolRun.of(args.toArray(String[]::new));
  }

  @Test
  void everyFormatCarriesTheNamesSafely(@TempDir Path out) throws Exception {
    Set<String> expected = new HashSet<>(TABLES);

    Path csv = out.resolve("r.csv");
    assertEquals(0, run("csv", csv).status());
    List<Map<String, String>> rows = Csv.parseWithHeader(Files.readString(csv));
    Set<String> fromCsv = new HashSet<>();
    rows.forEach(r -> {
      assertEquals(SCHEMA, r.get("schema"));
      fromCsv.add(r.get("relname"));
    });
    assertEquals(expected, fromCsv);

    Path json = out.resolve("r.json");
    assertEquals(0, run("json", json).status());
    Set<String> fromJson = new HashSet<>();
    for (JsonNode row : new ObjectMapper().readTree(json.toFile())) {
      fromJson.add(row.get("relname").asText());
    }
    assertEquals(expected, fromJson);

    Path table = out.resolve("r.txt");
    assertEquals(0, run("table", table).status());
    List<String> lines = Files.readAllLines(table);
    assertEquals(2 + TABLES.size() + 1, lines.size(), "one line per table, none broken:\n" + String.join("\n", lines));
    assertTrue(lines.stream().anyMatch(l -> l.contains("new\\nline\\ttab")), String.join("\n", lines));
    assertFalse(String.join("\n", lines).contains("\t"));

    Path html = out.resolve("r.html");
    assertEquals(0, run("html", html, "--indexes", "--totals").status());
    byte[] page = Files.readAllBytes(html);
    var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(page));
    assertTrue(doc.getElementsByTagName("script").getLength() <= 1, "at most the page's own script");
    String text = doc.getDocumentElement().getTextContent();
    assertTrue(text.contains("<script>alert(1)</script>"), "the name shown as text");
    assertFalse(new String(page, StandardCharsets.UTF_8).contains("<script>alert(1)"), "never as markup");
    assertTrue(text.contains("ünïcødé 表"));
    // the index section: each table's primary key, named after the table with _pkey, shown as text
    String pageText = text;
    assertTrue(pageText.contains(SCHEMA + ".<script>alert(1)</script>_pkey"), "a hostile index name, as text");
    assertTrue(pageText.contains("Indexes (" + TABLES.size() + ")"), "the index section counts the keys");
    // the totals: a row per table, its key among its indexes
    assertTrue(pageText.contains("Totals: table, TOAST and indexes (" + TABLES.size() + ")"), pageText);
  }
}
