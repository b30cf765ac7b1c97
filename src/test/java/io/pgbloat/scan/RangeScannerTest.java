package io.pgbloat.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.catalog.RelKind;
import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.io.read.IoSettings;
import io.pgbloat.io.store.DirectFileStore;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.io.store.HadoopFileStore;
import io.pgbloat.sample.RangePlanner;
import io.pgbloat.sample.RelationSlice;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.sample.ScanRange;
import io.pgbloat.spark.AnalysisPlan;
import io.pgbloat.spark.AnalysisPlanner;
import io.pgbloat.spark.AnalyzeOptions;
import io.pgbloat.stats.StratifiedSums;
import io.pgbloat.testing.SampleData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The sums do not depend on how the blocks were cut into ranges, nor on the order the ranges
 * finished in, nor on how they were read (synchronous, 16 in flight, O_DIRECT): one range or
 * hundreds, the merged sums are identical.
 */
class RangeScannerTest {

  private static Map<Integer, StratifiedSums> scan(AnalysisPlan plan, long rangeBlocks, boolean reversed, IoSettings io)
      throws Exception {
    List<RelationSlice> slices = new ArrayList<>();
    long total = 0;
    for (int i = 0; i < plan.relations().size(); i++) {
      slices.add(RelationSlice.of(i, plan.files().get(i), plan.samples().get(i), plan.relations().get(i).kind() == RelKind.TOAST_TABLE,
          plan.relations().get(i).columns()));
      total += plan.samples().get(i).sampledBlocks();
    }
    List<ScanRange> ranges = new RangePlanner(total, 1, 1, rangeBlocks, rangeBlocks).cut(slices);
    if (reversed) {
      java.util.Collections.reverse(ranges);
    }
    Map<Integer, StratifiedSums> sums = new HashMap<>();
    FileStore opened = HadoopFileStore.open(plan.dataDir(), new Configuration());
    try (FileStore files = io.directIo() ? DirectFileStore.open(opened) : opened) {
      RangeScanner scanner = new RangeScanner(files, plan.transactions(), plan.pageRules(), io);
      for (ScanRange range : ranges) {
        scanner.count(range).sums().forEach((r, s) -> sums.merge(r, s, StratifiedSums::merge));
      }
    }
    return sums;
  }

  @Test
  void sumsAreTheSameForAnyCutAndOrder() throws Exception {
    AnalysisPlan plan = AnalysisPlanner.plan(new AnalyzeOptions(SampleData.dataDir().toString(),
        RelationFilter.all(), SampleSize.blocks(20), 3, IoSettings.defaults()));
    Map<Integer, StratifiedSums> oneRange = scan(plan, 1_000_000, false, new IoSettings(1, 1, false));
    Map<Integer, StratifiedSums> manyRanges = scan(plan, 3, true, new IoSettings(16, 16, false));
    Map<Integer, StratifiedSums> blockByBlock = scan(plan, 1, false, new IoSettings(4, 2, true));
    assertTrue(oneRange.size() > 20, "relations with blocks: " + oneRange.size());
    assertEquals(oneRange, manyRanges);
    assertEquals(oneRange, blockByBlock);
  }

  /**
   * One range over every relation of the sample (some 90 files with blocks), read buffered and with
   * O_DIRECT: a relation's files are closed when the range moves past it, so the descriptors
   * open during and after the scan stay a handful, not one per relation.
   */
  @Test
  void aRangeKeepsOnlyItsCurrentRelationsFilesOpen() throws Exception {
    AnalysisPlan plan = AnalysisPlanner.plan(new AnalyzeOptions(SampleData.dataDir().toString(),
        RelationFilter.all(), SampleSize.blocks(20), 3, IoSettings.defaults()));
    List<RelationSlice> slices = new ArrayList<>();
    for (int i = 0; i < plan.relations().size(); i++) {
      slices.add(RelationSlice.of(i, plan.files().get(i), plan.samples().get(i), plan.relations().get(i).isToast(),
          plan.relations().get(i).columns()));
    }
    ScanRange everything = new ScanRange(0, slices);
    assertTrue(slices.stream().filter(sl -> sl.blocks().size() > 0).count() > 80, "relations with blocks");
    for (boolean direct : List.of(false, true)) {
      long before = openDescriptors();
      FileStore opened = HadoopFileStore.open(plan.dataDir(), new Configuration());
      try (FileStore files = direct ? DirectFileStore.open(opened) : opened) {
        RangeScanner scanner = new RangeScanner(files, plan.transactions(), plan.pageRules(), new IoSettings(4, 16, direct));
        long most = 0;
        try (RangePages pages = scanner.pages(everything)) {
          while (pages.hasNext()) {
            pages.next();
            most = Math.max(most, openDescriptors() - before);
          }
        }
        assertTrue(most < 20, (direct ? "O_DIRECT" : "buffered") + ": " + most + " more descriptors during the scan");
        assertTrue(openDescriptors() - before < 10, "after the scan: " + (openDescriptors() - before));
      }
    }
  }

  /** This JVM's open file descriptors (Linux). */
  private static long openDescriptors() throws java.io.IOException {
    try (var fds = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/fd"))) {
      return fds.count();
    }
  }

  /**
   * A file that shrinks, and one that vanishes, after the plan was made (a backup still being
   * written, a snapshot pruned): their missing blocks come back as bad pages naming the file
   * and the blocks; every other relation's sums are those of an undisturbed scan.
   */
  @Test
  void filesThatShrinkOrVanishMidRunAreBadPagesAndTheRestStands(@org.junit.jupiter.api.io.TempDir Path temp)
      throws Exception {
    Path dir = SampleData.copyTo(temp.resolve("pgdata"));
    AnalysisPlan plan = AnalysisPlanner.plan(new AnalyzeOptions(dir.toString(), RelationFilter.all(),
        SampleSize.fullScan(), 1, IoSettings.defaults()));
    Map<Integer, StratifiedSums> before = scan(plan, 1_000_000, false, IoSettings.defaults());
    int shrinking = indexOf(plan, "orders");
    int vanishing = indexOf(plan, "events");
    long shrinkingBlocks = plan.files().get(shrinking).blocks();
    try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(
        dir.resolve(plan.relations().get(shrinking).relpath()).toFile(), "rw")) {
      f.setLength(f.length() / 2);
    }
    Files.delete(dir.resolve(plan.relations().get(vanishing).relpath()));

    // ranges of 50 blocks: under RangeScanner.FINDINGS_PER_RANGE, so every bad page is listed
    List<ScanRange> ranges = new RangePlanner(Long.MAX_VALUE / 4, 1, 1, 50, 50).cut(
        java.util.stream.IntStream.range(0, plan.relations().size())
            .mapToObj(i -> RelationSlice.of(i, plan.files().get(i), plan.samples().get(i),
                plan.relations().get(i).kind() == RelKind.TOAST_TABLE, plan.relations().get(i).columns())).toList());
    Map<Integer, StratifiedSums> after = new HashMap<>();
    List<PageFinding> findings = new ArrayList<>();
    try (FileStore files = HadoopFileStore.open(plan.dataDir(), new Configuration())) {
      RangeScanner scanner = new RangeScanner(files, plan.transactions(), plan.pageRules(), IoSettings.defaults());
      for (ScanRange range : ranges) {
        RangeResult result = scanner.count(range);
        result.sums().forEach((r, s) -> after.merge(r, s, StratifiedSums::merge));
        findings.addAll(result.findings());
      }
    }
    long shrunkBad = findings.stream().filter(f -> f.relation() == shrinking).count();
    assertEquals(shrinkingBlocks - shrinkingBlocks / 2, shrunkBad, "bad pages of the shrunk file");
    assertEquals(plan.files().get(vanishing).blocks(), findings.stream().filter(f -> f.relation() == vanishing).count());
    assertEquals(shrunkBad + plan.files().get(vanishing).blocks(), findings.size());
    for (PageFinding f : findings) {
      assertTrue(f.reason().contains("failed twice") && f.reason().contains(plan.relations().get(f.relation()).relpath()),
          f.reason());
    }
    for (Integer r : before.keySet()) {
      if (r != shrinking && r != vanishing) {
        assertEquals(before.get(r), after.get(r), plan.relations().get(r).qualifiedName());
      }
    }
  }

  private static int indexOf(AnalysisPlan plan, String table) {
    for (int i = 0; i < plan.relations().size(); i++) {
      if (plan.relations().get(i).name().equals(table)) {
        return i;
      }
    }
    throw new AssertionError("no table " + table);
  }

  /**
   * Sums kept by chunk, of a full scan cut in ranges of 3 blocks that split chunks of 4: merged
   * across the ranges, every chunk is whole, and the chunks of each relation add up to its sums.
   */
  @Test
  void sumsByChunkAddUpToTheRelationsSums() throws Exception {
    AnalysisPlan plan = AnalysisPlanner.plan(new AnalyzeOptions(SampleData.dataDir().toString(),
        RelationFilter.all(), SampleSize.fullScan(), 3, IoSettings.defaults()));
    List<RelationSlice> slices = new ArrayList<>();
    long total = 0;
    for (int i = 0; i < plan.relations().size(); i++) {
      slices.add(RelationSlice.of(i, plan.files().get(i), plan.samples().get(i),
          plan.relations().get(i).kind() == RelKind.TOAST_TABLE, plan.relations().get(i).columns()));
      total += plan.samples().get(i).sampledBlocks();
    }
    Map<Integer, StratifiedSums> sums = new HashMap<>();
    Map<io.pgbloat.reuse.ChunkKey, io.pgbloat.reuse.ChunkSums> chunks = new HashMap<>();
    try (FileStore files = HadoopFileStore.open(plan.dataDir(), new Configuration())) {
      RangeScanner scanner = new RangeScanner(files, plan.transactions(), plan.pageRules(), IoSettings.defaults(), 4);
      for (ScanRange range : new RangePlanner(total, 1, 1, 3, 3).cut(slices)) {
        RangeResult result = scanner.count(range);
        result.sums().forEach((r, x) -> sums.merge(r, x, StratifiedSums::merge));
        result.chunks().forEach((k, x) -> chunks.merge(k, x, io.pgbloat.reuse.ChunkSums::merge));
      }
    }
    Map<Integer, io.pgbloat.stats.PartialSums> byChunks = new HashMap<>();
    int kept = 0;
    for (var e : chunks.entrySet()) {
      long blocks = plan.files().get(e.getKey().relation()).blocks();
      int length = (int) Math.min(4, blocks - e.getKey().chunk() * 4);
      io.pgbloat.reuse.KeptChunk k = e.getValue().kept(e.getKey(), length);
      assertTrue(k != null, "chunk " + e.getKey() + " read whole, no page bad or unsettled");
      kept++;
      byChunks.merge(e.getKey().relation(), io.pgbloat.stats.PartialSums.fromLongs(k.sums()),
          io.pgbloat.stats.PartialSums::merge);
    }
    assertTrue(kept > 20, "chunks kept: " + kept);
    sums.forEach((r, x) -> assertEquals(x.total(), byChunks.get(r), plan.relations().get(r).qualifiedName()));
  }
}
