package io.pgbloat.figures;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.catalog.DataDirectory;
import io.pgbloat.catalog.Database;
import io.pgbloat.catalog.Relation;
import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.store.HadoopFileStore;
import io.pgbloat.io.store.StoreSettings;
import io.pgbloat.page.BtreePage;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexMetapage;
import io.pgbloat.page.IndexPageKind;
import io.pgbloat.page.IndexPageStats;
import io.pgbloat.page.PageHeader;
import io.pgbloat.rebuild.IndexBuild;
import io.pgbloat.sample.IndexWholeBlocks;
import io.pgbloat.sample.BlockSampler;
import io.pgbloat.stats.Estimate;
import io.pgbloat.stats.IndexMeasure;
import io.pgbloat.stats.IndexPageSums;
import io.pgbloat.stats.StratifiedEstimator;
import io.pgbloat.testing.SampleData;
import io.pgbloat.testing.VersionSample;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The btree figures' 95 % intervals, as {@code stats.SamplingCoverageTest} measures the tables': the
 * pages of every btree index of the shipped samples (PostgreSQL 13 to 18), and those of a
 * synthetic bloated index ({@link BtreeEstimatesTest#population}), sampled again and again with
 * different seeds as a run samples an index (blocks 1 to N - 1 by {@link BlockSampler}, block 0
 * always), estimated as a run estimates them. Coverage is counted per figure over every index
 * and seed, a figure whose pages all agree left out (any sample gets it exactly), printed whole,
 * and held to floors.
 */
class BtreeSamplingCoverageTest {
  static final int RUNS = 400;
  static final List<String> FIGURES = List.of("internal_pages", "leaf_pages", "empty_pages", "deleted_pages",
      "avg_leaf_density", "leaf_fragmentation", "reclaimable_bytes");
  /** Per figure, what each page adds to it: a figure is exact from any sample when every page adds the same. */
  static final List<Function<IndexPageStats, List<Integer>>> CONTRIBUTIONS = List.of(
      p -> List.of(IndexMeasure.INTERNAL_PAGES.of(p)), p -> List.of(IndexMeasure.LEAF_PAGES.of(p)),
      p -> List.of(IndexMeasure.HALF_DEAD_PAGES.of(p)), p -> List.of(IndexMeasure.DELETED_PAGES.of(p)),
      p -> List.of(IndexMeasure.LEAF_FREE_SPACE.of(p), IndexMeasure.LEAF_PAGES.of(p)),
      p -> List.of(IndexMeasure.FRAGMENTS.of(p), IndexMeasure.LEAF_PAGES.of(p)),
      p -> List.of(IndexMeasure.LEAF_BUILD_BYTES.of(p), IndexMeasure.LEAF_DEDUPLICATED_BUILD_BYTES.of(p)));

  /** One index: its pages by block, block 0 first, and how a build of it goes. */
  record Index(String name, List<IndexPageStats> pages, IndexMetapage meta, IndexBuild build) {}

  /** Per figure, the samples whose interval held the truth, of those counted. */
  record Coverage(int[] covered, int[] counted) {
    Coverage() {
      this(new int[FIGURES.size()], new int[FIGURES.size()]);
    }

    double of(int figure) {
      return (double) covered[figure] / counted[figure];
    }
  }

  static List<Index> shippedIndexes() throws IOException {
    List<Path> dirs = new ArrayList<>(List.of(SampleData.dataDir()));
    VersionSample.MAJORS.forEach(m -> dirs.add(new VersionSample(m).dataDir()));
    List<Index> all = new ArrayList<>();
    for (Path d : dirs) {
      try (HadoopFileStore files = HadoopFileStore.open(d.toString(), StoreSettings.DEFAULT.configuration())) {
        DataDirectory dir = DataDirectory.open(files);
        BtreePage counter = new BtreePage(dir.pageRules(), IndexAccessMethod.BTREE.defaultFillfactor());
        Set<String> seen = new HashSet<>();
        for (Database db : dir.databases()) {
          for (Relation r : dir.indexes(db).stream().filter(i -> i.am().equals("btree")).toList()) {
            File f = d.resolve(r.relpath()).toFile();
            if (seen.add(r.relpath()) && f.length() >= 2 * PageHeader.BLCKSZ) {
              all.add(read(d.getParent().getFileName() + ":" + r.database() + "." + r.name(), f, counter,
                  new IndexBuild(r.fillfactor(), r.deduplicateItems())));
            }
          }
        }
      }
    }
    return all;
  }

  private static Index read(String name, File file, BtreePage counter, IndexBuild build) throws IOException {
    List<IndexPageStats> pages = new ArrayList<>();
    IndexMetapage meta = null;
    try (RandomAccessFile raf = new RandomAccessFile(file, "r")) {
      byte[] page = new byte[PageHeader.BLCKSZ];
      for (long b = 0; b < file.length() / PageHeader.BLCKSZ; b++) {
        raf.readFully(page);
        pages.add(counter.count(page, b));
        meta = b == 0 ? IndexMetapage.of(IndexAccessMethod.BTREE, page) : meta;
      }
    }
    return new Index(name, pages, meta, build);
  }

  static List<Estimate> figures(Index index, List<IndexPageStats> read) {
    IndexPageSums sums = new IndexPageSums(IndexAccessMethod.BTREE);
    read.forEach(p -> sums.add(p, false));
    IndexPageEstimates e = IndexPageEstimates.of(IndexAccessMethod.BTREE, index.pages().size(), sums, IndexWholeBlocks.NONE, index.meta(),
        index.build(), new StratifiedEstimator(0.95));
    return List.of(e.total(IndexMeasure.INTERNAL_PAGES), e.total(IndexMeasure.LEAF_PAGES),
        e.total(IndexMeasure.HALF_DEAD_PAGES), e.total(IndexMeasure.DELETED_PAGES), e.avgLeafDensity(),
        e.leafFragmentation(), e.reclaimableBytes());
  }

  /** {@code n} of blocks 1 to N - 1 of each index of more than 2n of them, {@link #RUNS} times. */
  static Coverage simulate(List<Index> indexes, int n) {
    Coverage c = new Coverage();
    for (Index index : indexes) {
      long m = index.pages().size() - 1;
      if (m <= 2L * n) {
        continue;
      }
      List<Estimate> truth = figures(index, index.pages());
      boolean[] constant = new boolean[FIGURES.size()];
      for (int f = 0; f < FIGURES.size(); f++) {
        Function<IndexPageStats, List<Integer>> adds = CONTRIBUTIONS.get(f);
        List<Integer> first = adds.apply(index.pages().get(1));
        constant[f] = index.pages().subList(2, index.pages().size()).stream().allMatch(p -> adds.apply(p).equals(first));
      }
      for (int run = 0; run < RUNS; run++) {
        BlockList sample = BlockSampler.sample(m, n, BlockSampler.seedFor(run, index.name()));
        List<IndexPageStats> read = new ArrayList<>(List.of(index.pages().get(0)));
        sample.forEach(p -> read.add(index.pages().get((int) p + 1)));
        List<Estimate> e = figures(index, read);
        for (int f = 0; f < FIGURES.size(); f++) {
          if (!constant[f]) {
            c.counted[f]++;
            double t = truth.get(f).value();
            c.covered[f] += e.get(f).low() <= t && t <= e.get(f).high() ? 1 : 0;
          }
        }
      }
    }
    return c;
  }

  private static void print(StringBuilder report, String what, Coverage c) {
    report.append(what).append('\n');
    for (int f = 0; f < FIGURES.size(); f++) {
      report.append(c.counted[f] == 0 ? String.format(Locale.ROOT, "  %-20s (constant: exact)%n", FIGURES.get(f))
          : String.format(Locale.ROOT, "  %-20s %6.1f %%  of %d samples%n", FIGURES.get(f), 100 * c.of(f),
              c.counted[f]));
    }
  }

  @Test
  void intervalsCoverTheTruthOfRealAndSyntheticIndexes() throws IOException {
    List<Index> shipped = shippedIndexes();
    Index synthetic = new Index("synthetic", withMetapage(BtreeEstimatesTest.population(5000, 2)),
        IndexMetapage.btree(4, 7, 2, true), new IndexBuild(90, true));
    StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
        "coverage of the btree figures' 95%% intervals, %d seeds (%d shipped btree indexes):%n", RUNS, shipped.size()));
    List<Coverage> small = new ArrayList<>();
    for (int n : new int[] {3, 8}) {
      small.add(simulate(shipped, n));
      print(report, "shipped samples' indexes, " + n + " blocks:", small.get(small.size() - 1));
    }
    Coverage few = simulate(List.of(synthetic), 30);
    print(report, "synthetic 5000-page index, 30 blocks:", few);
    Coverage many = simulate(List.of(synthetic), 300);
    print(report, "synthetic 5000-page index, 300 blocks:", many);
    System.out.print(report);
    for (int f = 0; f < FIGURES.size(); f++) {
      if (many.counted[f] > 0) {
        assertTrue(many.of(f) >= 0.90 && many.of(f) <= 0.99, FIGURES.get(f) + "\n" + report);
      }
      if (few.counted[f] > 0) {
        assertTrue(few.of(f) >= 0.85, FIGURES.get(f) + "\n" + report);
      }
      if (small.get(1).counted[f] > 0) {
        assertTrue(small.get(1).of(f) >= 0.80, FIGURES.get(f) + "\n" + report);
      }
      if (small.get(0).counted[f] > 0) {
        assertTrue(small.get(0).of(f) >= 0.70, FIGURES.get(f) + "\n" + report);
      }
    }
  }

  /** The synthetic population's blocks 1 to N - 1 after a metapage at block 0. */
  private static List<IndexPageStats> withMetapage(List<IndexPageStats> pages) {
    List<IndexPageStats> all = new ArrayList<>();
    all.add(new IndexPageStats(0, IndexPageKind.META, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, null, null));
    all.addAll(pages);
    return all;
  }
}
