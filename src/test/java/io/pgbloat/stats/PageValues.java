package io.pgbloat.stats;

import io.pgbloat.io.read.BlockList;
import io.pgbloat.page.HeapPageStats;
import io.pgbloat.sample.RelationSample;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * Every page's figures of real PostgreSQL-made tables (the ground-truth scenarios at scale 1),
 * exported once by {@code io.pgbloat.bench.PageValuesExport} into
 * {@code src/test/resources/pages/}: the population the sampling tests draw from.
 *
 * @param name the table
 * @param pages per block, its figures
 * @param allVisible the blocks the visibility map marks all-visible
 */
public record PageValues(String name, List<HeapPageStats> pages, BlockList allVisible) {

  public long blocks() {
    return pages.size();
  }

  /** The exact total of {@code m}: the truth a sample estimates. */
  public long total(Measure m) {
    long sum = 0;
    for (HeapPageStats p : pages) {
      sum += m.of(p);
    }
    return sum;
  }

  /** What reading {@code sample} of this table adds up to, stratum by stratum. */
  public StratifiedSums read(RelationSample sample) {
    StratifiedSums sums = new StratifiedSums();
    long position = 0;
    for (int r = 0; r < sample.sample().runCount(); r++) {
      for (long b = sample.sample().runStart(r); b < sample.sample().runStart(r) + sample.sample().runLength(r); b++) {
        sums.add(sample.stratumAt(position++), pages.get((int) b));
      }
    }
    return sums;
  }

  public static List<PageValues> load(String... resources) {
    Map<String, List<String[]>> rows = new LinkedHashMap<>();
    for (String resource : resources) {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(
          new GZIPInputStream(PageValues.class.getResourceAsStream(resource)), StandardCharsets.UTF_8))) {
        in.readLine(); // header
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          String[] f = line.split(",");
          rows.computeIfAbsent(f[0], k -> new ArrayList<>()).add(f);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    List<PageValues> tables = new ArrayList<>();
    rows.forEach((name, lines) -> {
      List<HeapPageStats> pages = new ArrayList<>();
      BlockList.Builder visible = new BlockList.Builder();
      for (String[] f : lines) {
        pages.add(new HeapPageStats(Integer.parseInt(f[2]), Integer.parseInt(f[3]), Integer.parseInt(f[4]),
            Integer.parseInt(f[5]), Integer.parseInt(f[6]), 0, 0, io.pgbloat.page.ToastChunks.NONE, 0, 0, 0, 0, 0, 0, 0, false, false, 0, null));
        if (f[7].equals("1")) {
          visible.add(Long.parseLong(f[1]));
        }
      }
      tables.add(new PageValues(name, pages, visible.build()));
    });
    return tables;
  }
}
