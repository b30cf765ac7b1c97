package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.testing.Csv;
import io.pgbloat.testing.SampleData;
import io.pgbloat.testing.ToolRun;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Figures never claim more certainty than was measured: a sampled part of a relation none of
 * whose pages could be read has no estimate (empty, "?" in the table, interval [0, ∞)), never
 * 0 with SE 0; a part read whole whose bad pages no figure counts is flagged a lower bound, in
 * full, sampled and target-RSE runs alike; a file ending in a partial block counts it as a bad
 * page in the relation's row.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HonestEstimatesTest {
  @TempDir static Path temp;
  private Path dir;
  private Map<String, Map<String, String>> truth;

  @BeforeAll
  void damageACopy() throws IOException {
    dir = SampleData.copyTo(temp.resolve("pgdata"));
    truth = new java.util.HashMap<>();
    SampleData.pgstattuple().forEach(r -> truth.put(Report.key(r), r));
    // every page of orders fails its checksum
    long orderBlocks = Long.parseLong(truth.get("shop:public.orders").get("blocks"));
    try (RandomAccessFile f = new RandomAccessFile(dir.resolve(truth.get("shop:public.orders").get("relpath")).toFile(), "rw")) {
      for (long b = 0; b < orderBlocks; b++) {
        f.seek(b * 8192 + 4000);
        f.write("garbage".getBytes(StandardCharsets.US_ASCII));
      }
    }
    // one page of customers fails its checksum
    try (RandomAccessFile f = new RandomAccessFile(dir.resolve(truth.get("shop:public.customers").get("relpath")).toFile(), "rw")) {
      f.seek(2 * 8192 + 4000);
      f.write("garbage".getBytes(StandardCharsets.US_ASCII));
    }
    // events ends in a partial block
    try (RandomAccessFile f = new RandomAccessFile(dir.resolve(truth.get("shop:public.events").get("relpath")).toFile(), "rw")) {
      f.setLength(f.length() - 100);
    }
  }

  private Map<String, String> row(String table, String... sampling) {
    List<String> args = new java.util.ArrayList<>(List.of("analyze", "--data-dir", dir.toString(), "--database", "shop",
        "--table", table, "--format", "csv", "--master", "local[2]"));
    args.addAll(List.of(sampling));
    ToolRun run = ToolRun.of(args.toArray(String[]::new));
    assertEquals(1, run.status(), "bad pages are findings: " + run.describe());
    List<Map<String, String>> rows = Csv.parseWithHeader(run.out());
    assertEquals(1, rows.size(), run.out());
    return rows.get(0);
  }

  @Test
  void aSampledRelationWithNoReadablePageHasNoEstimate() {
    Map<String, String> r = row("public.orders", "--sample-blocks", "5");
    assertTrue(Long.parseLong(r.get("scanned_blocks")) < Long.parseLong(r.get("blocks")), r.toString());
    assertEquals(r.get("scanned_blocks"), r.get("bad_pages"));
    for (String count : List.of("tuple_count", "tuple_len", "dead_tuple_count", "dead_tuple_len", "free_space")) {
      assertEquals("", r.get(count), count + " is no number: " + r);
      assertEquals("", r.get(count + "_se"), count + "_se: " + r);
      assertEquals("0", r.get(count + "_ci_low"), count + " is at least 0: " + r);
      assertEquals("", r.get(count + "_ci_high"), count + " is unbounded above: " + r);
    }
    assertEquals("", r.get("reclaimable_bytes"));
    assertEquals("", r.get("reclaimable_bytes_ci_low"), "a rewrite may grow a table: no lower bound");
    assertEquals(r.get("table_len"), r.get("reclaimable_bytes_ci_high"), "a rewrite gives back at most the table");
    assertEquals("NaN", r.get("free_percent"));

    ToolRun table = ToolRun.of("analyze", "--data-dir", dir.toString(), "--database", "shop", "--table",
        "public.orders", "--sample-blocks", "5", "--master", "local[1]");
    String line = table.out().lines().filter(l -> l.contains("public.orders")).findFirst().orElseThrow();
    assertTrue(line.contains("?") && !line.matches(".*\\s0\\s.*"), "the table says ? and never 0:\n" + table.out());
  }

  @Test
  void aRelationReadWholeWithBadPagesIsALowerBound() {
    Map<String, String> full = row("public.customers", "--full-scan");
    assertEquals("1", full.get("bad_pages"));
    assertEquals("true", full.get("lower_bound"));
    assertEquals("0.00", full.get("tuple_count_se"));
    Map<String, String> t = truth.get("shop:public.customers");
    assertTrue(Long.parseLong(full.get("tuple_count")) < Long.parseLong(t.get("tuple_count")));

    // the default sample reads this small table whole: the same figures, the same flag
    Map<String, String> sampled = row("public.customers");
    Map<String, String> targeted = row("public.customers", "--target-rse", "0.05");
    for (Map<String, String> other : List.of(sampled, targeted)) {
      for (String column : full.keySet()) {
        if (!column.equals("sample_seed")) {
          assertEquals(full.get(column), other.get(column), column + " of " + other);
        }
      }
    }

    ToolRun table = ToolRun.of("analyze", "--data-dir", dir.toString(), "--database", "shop", "--table",
        "public.customers", "--full-scan", "--master", "local[1]");
    assertTrue(table.out().contains("≥" + full.get("tuple_count")), table.out());
  }

  @Test
  void aPartialBlockIsABadPageOfItsRelation() {
    Map<String, String> r = row("public.events", "--full-scan");
    assertEquals(Long.parseLong(truth.get("shop:public.events").get("blocks")) - 1, Long.parseLong(r.get("blocks")));
    assertEquals("1", r.get("bad_pages"));
    assertEquals("true", r.get("lower_bound"));
  }
}
