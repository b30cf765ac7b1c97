package io.pgbloat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.testing.Csv;
import io.pgbloat.testing.SampleData;
import io.pgbloat.testing.ToolRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Filters on the shipped sample: indexes alone by pattern; a size filter never hides a damaged file. */
class FiltersTest {
  @TempDir Path temp;

  @Test
  void relkindIWithAPatternReportsThatPatternsIndexesAlone() throws IOException {
    Path indexes = temp.resolve("indexes.csv");
    ToolRun run = ToolRun.of("analyze", "--data-dir", SampleData.dataDir().toString(), "--relkind", "i", "--indexes",
        "--table", "public.*", "--full-scan", "--format", "csv", "--index-output", indexes.toString(), "--master",
        "local[1]");
    assertEquals(0, run.status(), run.describe());
    assertEquals(1, run.out().lines().count(), "no table rows, only the header:\n" + run.out());
    List<Map<String, String>> rows = Csv.parseWithHeader(Files.readString(indexes));
    assertTrue(rows.size() >= 4, "the public tables' keys: " + rows.size());
    rows.forEach(r -> assertEquals("public", r.get("schema")));
    rows.forEach(r -> assertEquals(r.get("index_size"), Long.toString(8192 * Long.parseLong(r.get("sampled_blocks")))));
  }

  @Test
  void aMissingFileIsReportedWhateverTheSizeFilter() {
    Path dir = SampleData.copyTo(temp.resolve("pgdata"));
    Map<String, String> orders = SampleData.pgstattuple().stream()
        .filter(r -> r.get("relname").equals("orders")).findFirst().orElseThrow();
    try {
      Files.delete(dir.resolve(orders.get("relpath")));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    ToolRun run = ToolRun.of("analyze", "--data-dir", dir.toString(), "--min-size", "1GB", "--format", "csv",
        "--master", "local[1]");
    assertEquals(1, run.status(), run.describe());
    assertTrue(run.err().contains("shop:public.orders: relation file " + orders.get("relpath") + " is missing"),
        run.err());
  }
}
