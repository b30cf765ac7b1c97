package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pgbloat.testing.Csv;
import io.pgbloat.testing.ToolRun;
import io.pgbloat.testing.VersionSample;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The data directories of PostgreSQL 13, 14, 16, 17 and 18 shipped in {@code sample/versions},
 * analyzed with no server: a full scan equals that version's {@code pgstattuple()} on every
 * relation and its {@code pgstatindex()} on every btree index, and the names of the database
 * {@code app}, stored in its own encoding (WIN1252, LATIN1, EUC_JP, UTF8), come out right in
 * every format.
 */
class VersionSamplesTest {
  /** The index report's columns that pgstatindex() gives. */
  private static final List<String> PGSTATINDEX_COLUMNS = List.of("version", "tree_level", "index_size",
      "root_block_no", "internal_pages", "leaf_pages", "empty_pages", "deleted_pages", "avg_leaf_density",
      "leaf_fragmentation");

  static List<Integer> majors() {
    return VersionSample.MAJORS;
  }

  @ParameterizedTest(name = "PostgreSQL {0}")
  @MethodSource("majors")
  void fullScanEqualsThatVersionsPgstattupleAndPgstatindex(int major, @TempDir Path out) throws Exception {
    VersionSample sample = new VersionSample(major);
    Path indexes = out.resolve("indexes.csv");
    ToolRun run = ToolRun.of("analyze", "--data-dir", sample.dataDir().toString(), "--full-scan", "--indexes",
        "--format", "csv", "--index-output", indexes.toString(), "--master", "local[2]");
    assertEquals(0, run.status(), run.describe());
    assertEquals("", run.err());
    List<String> problems = new ArrayList<>(Report.differences(sample.pgstattuple(), run.out()));
    problems.addAll(indexDifferences(sample.pgstatindex(), Files.readString(indexes)));
    assertTrue(problems.isEmpty(), () -> "PostgreSQL " + major + ": " + String.join("\n", problems));
  }

  @ParameterizedTest(name = "PostgreSQL {0}")
  @MethodSource("majors")
  void namesInTheDatabasesOwnEncodingComeOutRightInEveryFormat(int major, @TempDir Path out) throws Exception {
    VersionSample sample = new VersionSample(major);
    List<String> names = sample.pgstattuple().stream()
        .filter(r -> r.get("database").equals("app") && !r.get("schema").startsWith("pg_")
            && !r.get("schema").equals("information_schema") && !r.get("schema").equals("public"))
        .map(r -> r.get("schema") + "." + r.get("relname")).toList();
    assertEquals(1, names.size(), "the sample's one table in a schema of its own: " + names);
    String name = names.get(0);
    assertTrue(name.chars().anyMatch(c -> c > 0x7F), name + " has characters beyond ASCII");

    Path csv = out.resolve("r.csv");
    run(sample, "csv", csv);
    assertTrue(Csv.parseWithHeader(Files.readString(csv)).stream()
        .anyMatch(r -> (r.get("schema") + "." + r.get("relname")).equals(name)), name + " in the CSV report");

    Path json = out.resolve("r.json");
    run(sample, "json", json);
    boolean inJson = false;
    for (JsonNode row : new ObjectMapper().readTree(json.toFile())) {
      inJson |= (row.get("schema").asText() + "." + row.get("relname").asText()).equals(name);
    }
    assertTrue(inJson, name + " in the JSON report");

    Path table = out.resolve("r.txt");
    run(sample, "table", table);
    assertTrue(Files.readString(table, StandardCharsets.UTF_8).contains(name), name + " in the terminal table");

    Path html = out.resolve("r.html");
    run(sample, "html", html);
    var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(Files.readAllBytes(html)));
    assertTrue(doc.getDocumentElement().getTextContent().contains(name), name + " in the HTML page");
  }

  /** A sampled run reads fewer blocks of the larger tables and bounds each estimate. */
  @ParameterizedTest(name = "PostgreSQL {0}")
  @MethodSource("majors")
  void sampledRunBoundsItsEstimates(int major) {
    VersionSample sample = new VersionSample(major);
    ToolRun run = ToolRun.of("analyze", "--data-dir", sample.dataDir().toString(), "--sample-blocks", "8",
        "--seed", "5", "--format", "csv", "--master", "local[2]");
    assertEquals(0, run.status(), run.describe());
    int sampled = 0;
    for (Map<String, String> r : Csv.parseWithHeader(run.out())) {
      if (Long.parseLong(r.get("scanned_blocks")) == Long.parseLong(r.get("blocks"))) {
        continue;
      }
      sampled++;
      for (String figure : List.of("tuple_count", "dead_tuple_len", "free_space")) {
        long value = Long.parseLong(r.get(figure));
        assertTrue(Long.parseLong(r.get(figure + "_ci_low")) <= value && value <= Long.parseLong(r.get(figure + "_ci_high")),
            r.toString());
      }
      assertTrue(Double.parseDouble(r.get("tuple_count_se")) > 0, r.toString());
    }
    assertTrue(sampled >= 3, "tables larger than the sample: " + sampled);
  }

  private static void run(VersionSample sample, String format, Path output) {
    ToolRun run = ToolRun.of("analyze", "--data-dir", sample.dataDir().toString(), "--full-scan", "--format",
        format, "--output", output.toString(), "--master", "local[1]");
    assertEquals(0, run.status(), run.describe());
  }

  /** Every difference between pgstatindex()'s rows and the tool's index report. */
  static List<String> indexDifferences(List<Map<String, String>> truth, String reportCsv) {
    Map<String, Map<String, String>> report = new HashMap<>();
    for (Map<String, String> row : Csv.parseWithHeader(reportCsv)) {
      report.put(Report.key(row), row);
    }
    List<String> problems = new ArrayList<>();
    for (Map<String, String> want : truth) {
      Map<String, String> got = report.remove(Report.key(want));
      if (got == null) {
        problems.add(Report.key(want) + ": missing from the index report");
        continue;
      }
      for (String column : PGSTATINDEX_COLUMNS) {
        String w = want.get(column);
        String g = got.get(column);
        boolean same = w.equals("NaN") ? g.equals("NaN") : !g.equals("NaN") && new BigDecimal(w).compareTo(new BigDecimal(g)) == 0;
        if (!same) {
          problems.add(Report.key(want) + ": " + column + " expected " + w + ", got " + g);
        }
      }
    }
    report.keySet().forEach(k -> problems.add(k + ": in the index report but not in pgstatindex()'s truth"));
    return problems;
  }
}
