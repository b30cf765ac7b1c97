package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.cli.Main;
import io.pgbloat.testing.Csv;
import io.pgbloat.testing.SampleData;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.pgbloat.spark.RangeSizing;
import java.nio.file.Path;

/** Sampled runs on the shipped sample: exactness when the sample covers, determinism, bounds. */
class SamplingRunsTest {
  private static final String DIR = SampleData.dataDir().toString();

  private static String csv(String... extra) {
    List<String> args = new ArrayList<>(List.of("analyze", "--data-dir", DIR, "--format", "csv", "--database", "shop"));
    args.addAll(List.of(extra));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(args.toArray(String[]::new), new PrintStream(out, true), new PrintStream(err, true));
    assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void sampleCoveringEveryTableEqualsTheFullScan() {
    List<Map<String, String>> full = Csv.parseWithHeader(csv("--full-scan", "--master", "local[2]"));
    List<Map<String, String>> covering = Csv.parseWithHeader(csv("--sample-blocks", "100000", "--master", "local[2]"));
    assertEquals(full.size(), covering.size());
    for (int i = 0; i < full.size(); i++) {
      Map<String, String> f = full.get(i);
      Map<String, String> c = covering.get(i);
      assertEquals("", f.get("sample_seed"));
      assertEquals("1", c.get("sample_seed"));
      f.remove("sample_seed");
      c.remove("sample_seed");
      assertEquals(f, c);
      assertEquals("0.00", f.get("dead_tuple_len_se"));
      assertEquals(f.get("dead_tuple_len"), f.get("dead_tuple_len_ci_low"));
      assertEquals(f.get("free_percent"), f.get("free_percent_ci_high"));
    }
  }

  /**
   * Same seed, one core or three, the blocks cut into many small ranges (two blocks at least,
   * by {@code spark.pgbloat.minRangeBlocks}): byte-identical output, because the sample depends
   * only on the seed and the sums merge exactly, whatever range a page fell into.
   */
  @Test
  void sameSeedGivesIdenticalOutputAtAnyParallelism(@TempDir Path out) throws Exception {
    System.setProperty(RangeSizing.MIN_RANGE_BLOCKS_PROPERTY, "2");
    try {
      String one = csv("--sample-blocks", "10", "--seed", "7", "--master", "local[1]",
          "--metrics-out", out.resolve("one.json").toString());
      String three = csv("--sample-blocks", "10", "--seed", "7", "--master", "local[3]",
          "--metrics-out", out.resolve("three.json").toString());
      assertEquals(one, three);
      assertEquals(1, ranges(out.resolve("one.json")), "one core, one range: no other core to balance with");
      // one small range on local[1] is counted in the driver, the same sums as in Spark's tasks
      assertTrue(java.nio.file.Files.readString(out.resolve("one.json")).contains("\"counted_in_driver\": true"));
      assertTrue(java.nio.file.Files.readString(out.resolve("three.json")).contains("\"counted_in_driver\": false"));
      assertEquals(12, ranges(out.resolve("three.json")), "4 ranges a core");
      assertNotEquals(one, csv("--sample-blocks", "10", "--seed", "8", "--master", "local[1]"));
    } finally {
      System.clearProperty(RangeSizing.MIN_RANGE_BLOCKS_PROPERTY);
    }
  }

  /** The "ranges" figure of a --metrics-out file. */
  static int ranges(Path metrics) throws java.io.IOException {
    return (int) metric(metrics, "ranges");
  }

  /** A whole-number figure of a --metrics-out file. */
  static long metric(Path metrics, String name) throws java.io.IOException {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"" + name + "\":\\s*(\\d+)")
        .matcher(java.nio.file.Files.readString(metrics));
    assertTrue(m.find(), "no " + name + " in " + metrics);
    return Long.parseLong(m.group(1));
  }

  /**
   * A dense sample read through its short gaps: the same report as reading each sampled block
   * alone, in fewer reads, the blocks read in the gaps counted in bytes_read and apart.
   */
  @Test
  void gapsReadThroughChangeTheReadsNotTheReport(@TempDir Path out) throws Exception {
    String alone = csv("--sample-percent", "40", "--io-gap-limit", "0", "--master", "local[1]",
        "--metrics-out", out.resolve("alone.json").toString());
    String through = csv("--sample-percent", "40", "--io-gap-limit", "8", "--master", "local[1]",
        "--metrics-out", out.resolve("through.json").toString());
    assertEquals(alone, through);
    Path a = out.resolve("alone.json");
    Path t = out.resolve("through.json");
    assertEquals(metric(a, "blocks_read"), metric(t, "blocks_read"));
    assertEquals(0, metric(a, "gap_blocks_read"));
    assertEquals(metric(a, "blocks_read") * 8192, metric(a, "bytes_read"));
    assertTrue(metric(t, "gap_blocks_read") > 0, "a 40 % sample has gaps of a few blocks");
    assertEquals((metric(t, "blocks_read") + metric(t, "gap_blocks_read")) * 8192, metric(t, "bytes_read"));
    assertTrue(metric(t, "read_calls") < metric(a, "read_calls"),
        metric(t, "read_calls") + " reads through gaps, " + metric(a, "read_calls") + " without");
    assertEquals(8, metric(t, "io_gap_limit"));
  }

  /** A sampled run reads n blocks (two more at most, for small strata) and bounds every estimate. */
  @Test
  void sampledFiguresCarryTheirBounds() {
    int sampled = 0;
    for (Map<String, String> r : Csv.parseWithHeader(csv("--sample-blocks", "40", "--master", "local[2]"))) {
      long blocks = Long.parseLong(r.get("blocks"));
      long read = Long.parseLong(r.get("sampled_blocks"));
      assertEquals(r.get("scanned_blocks"), r.get("sampled_blocks"));
      if (blocks <= 40) {
        assertEquals(blocks, read, r.toString());
        assertEquals("0.00", r.get("tuple_count_se"), r.toString());
        continue;
      }
      sampled++;
      assertTrue(read >= 40 && read <= 42, r.toString());
      for (String figure : List.of("tuple_count", "tuple_len", "dead_tuple_len", "free_space")) {
        long value = Long.parseLong(r.get(figure));
        assertTrue(Long.parseLong(r.get(figure + "_ci_low")) <= value, r.toString());
        assertTrue(Long.parseLong(r.get(figure + "_ci_high")) >= value, r.toString());
      }
      assertTrue(Double.parseDouble(r.get("tuple_count_se")) > 0, r.toString());
    }
    assertTrue(sampled >= 3, "the sample has tables larger than 40 blocks");
  }
}
