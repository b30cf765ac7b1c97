package io.pgbloat.it;

import io.pgbloat.catalog.DataDirectory;
import io.pgbloat.figures.IndexPageEstimates;
import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.io.store.HadoopFileStore;
import io.pgbloat.page.GinPage;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexPageKind;
import io.pgbloat.page.IndexPageStats;
import io.pgbloat.page.PageHeader;
import io.pgbloat.sample.BlockSampler;
import io.pgbloat.stats.Estimate;
import io.pgbloat.stats.IndexMeasure;
import io.pgbloat.stats.IndexPageSums;
import io.pgbloat.testing.PostgresCluster;
import java.util.*;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class GinExperimentTest {
  @Test
  void experiment() throws Exception {
    PostgresCluster.assumeServer(Integer.getInteger("gin.major", 15));
    try (PostgresCluster pg = PostgresCluster.builder().version(Integer.getInteger("gin.major", 15)).init()) {
      pg.start();
      pg.psql("postgres", java.nio.file.Files.readString(java.nio.file.Path.of(System.getProperty("gin.sql"))));
      if (false) pg.psql("postgres", """
          CREATE TABLE d (id int, body text);
          INSERT INTO d SELECT g, (SELECT string_agg(md5((g * 10 + k)::text), ' ') FROM generate_series(1, 4) k)
            FROM generate_series(1, 5000) g;
          CREATE INDEX d_gin ON d USING gin (to_tsvector('simple', body)) WITH (fastupdate = off);
          INSERT INTO d SELECT g, (SELECT string_agg(md5((g * 10 + k)::text), ' ') FROM generate_series(1, 4) k)
            FROM generate_series(5001, 40000) g;
          """);
      List<String> names = new ArrayList<>();
      List<String> paths = new ArrayList<>();
      for (var r : pg.queryCsv("postgres", "SELECT relname AS n, pg_relation_filepath(oid) AS p FROM pg_class WHERE relam = (SELECT oid FROM pg_am WHERE amname = 'gin') ORDER BY 1")) {
        names.add(r.get("n")); paths.add(r.get("p"));
      }
      pg.stop();
      for (int i = 0; i < names.size(); i++) {
        System.out.println("=== " + names.get(i));
        analyse(pg, paths.get(i), names.get(i));
      }
    }
  }

  static void analyse(PostgresCluster pg, String path, String name) throws Exception {
    {
      List<IndexPageStats> pages = new ArrayList<>();
      try (HadoopFileStore files = HadoopFileStore.open(pg.dataDir().toString(), new Configuration())) {
        DataDirectory dir = DataDirectory.open(files);
        GinPage counter = new GinPage(dir.pageRules());
        SegmentedFile file = SegmentedFile.measure(files, path, dir.control().segmentBlocks()).file();
        byte[] page = new byte[PageHeader.BLCKSZ];
        for (long b = 0; b < file.blocks(); b++) {
          file.readBlocks(files, b, 1, page);
          pages.add(counter.count(page, b));
        }
      }
      int n = pages.size();
      System.out.println("blocks " + n + "; block 1: " + pages.get(1).kind() + " gap " + pages.get(1).gap());
      for (IndexPageStats p : pages) if (p.kind() == IndexPageKind.ENTRY_INNER || p.gap() > 6000) System.out.println("  block " + p.block() + " " + p.kind() + " gap " + p.gap());
      Map<IndexPageKind, List<Integer>> byKind = new TreeMap<>();
      for (IndexPageStats p : pages) byKind.computeIfAbsent(p.kind(), k -> new ArrayList<>()).add(p.gap());
      for (var e : byKind.entrySet()) {
        List<Integer> v = new ArrayList<>(e.getValue()); Collections.sort(v);
        double mean = v.stream().mapToInt(i -> i).average().orElse(0);
        double var = v.stream().mapToDouble(i -> (i - mean) * (i - mean)).sum() / Math.max(1, v.size() - 1);
        long sum = v.stream().mapToLong(i -> i).sum();
        System.out.printf("%s: %d pages, sum %d, mean %.0f sd %.0f, min %d p10 %d p50 %d p90 %d max %d%n", e.getKey(), v.size(),
            sum, mean, Math.sqrt(var), v.get(0), v.get(v.size() / 10), v.get(v.size() / 2), v.get(v.size() * 9 / 10), v.get(v.size() - 1));
      }
      // histogram of gap, 500-byte bins
      int[] hist = new int[17];
      for (IndexPageStats p : pages.subList(1, n)) hist[Math.min(16, p.gap() / 500)]++;
      System.out.println("gap histogram (500 B bins): " + Arrays.toString(hist));
      // by block position: first/last deciles
      StringBuilder pos = new StringBuilder("mean gap by tenth of the file:");
      for (int d = 0; d < 10; d++) {
        int from = 1 + d * (n - 1) / 10, to = 1 + (d + 1) * (n - 1) / 10;
        pos.append(String.format(" %.0f", pages.subList(from, to).stream().mapToInt(IndexPageStats::gap).average().orElse(0)));
      }
      System.out.println(pos);
      long truth = pages.stream().mapToLong(IndexPageStats::gap).sum();
      for (int sampleSize : new int[] {40, 100, 300}) {
        int covered = 0; double zsum = 0; int runs = 200;
        for (int seed = 0; seed < runs; seed++) {
          BlockList s = BlockSampler.sample(n - 1, sampleSize, BlockSampler.seedFor(seed, "postgres", "public", name));
          IndexPageSums sums = new IndexPageSums(IndexAccessMethod.GIN).add(pages.get(0), false);
          boolean root = Boolean.getBoolean("gin.root");
          if (root) sums.add(pages.get(1), true);
          BlockList s2 = root ? BlockSampler.sample(n - 2, sampleSize, BlockSampler.seedFor(seed, "postgres", "public", name)) : s;
          int off = root ? 2 : 1;
          s2.forEach(b -> sums.add(pages.get((int) b + off), false));
          IndexPageEstimates e = IndexPageEstimates.of(IndexAccessMethod.GIN, n, sums, null, 100, 0.95);
          Estimate f = e.total(IndexMeasure.GAP);
          covered += f.low() <= truth && truth <= f.high() ? 1 : 0;
          zsum += (f.value() - truth) / f.standardError();
        }
        System.out.printf("n=%d: coverage %d/%d, mean z %.2f%n", sampleSize, covered, runs, zsum / runs);
      }
      if (!name.equals(System.getProperty("gin.tool", "a_gin"))) return;
      int covered = 0; double zsum = 0;
      for (int seed = 1; seed <= 20; seed++) {
        java.nio.file.Path csv = pg.baseDir().resolve("idx-" + seed + ".csv");
        io.pgbloat.testing.ToolRun run = io.pgbloat.testing.ToolRun.of("analyze", "--data-dir", pg.dataDir().toString(), "--database", "postgres",
            "--table", "public.*", "--sample-blocks", "40", "--seed", Integer.toString(seed), "--indexes", "--format", "csv",
            "--output", "/dev/null", "--index-output", csv.toString(), "--master", "local[2]");
        for (Map<String, String> row : io.pgbloat.testing.Csv.parseWithHeader(java.nio.file.Files.readString(csv))) {
          if (!row.get("relname").equals(name)) continue;
          double v = Double.parseDouble(row.get("free_space")), se = Double.parseDouble(row.get("free_space_se"));
          double lo = Double.parseDouble(row.get("free_space_ci_low")), hi = Double.parseDouble(row.get("free_space_ci_high"));
          covered += lo <= truth && truth <= hi ? 1 : 0;
          zsum += (v - truth) / se;
          System.out.println("tool seed " + seed + ": " + row.get("scanned_blocks") + " read, " + v + " se " + se + " [" + lo + ", " + hi + "] truth " + truth);
        }
      }
      System.out.printf("tool, 40 blocks: coverage %d/20, mean z %.2f%n", covered, zsum / 20);
    }
  }
}
