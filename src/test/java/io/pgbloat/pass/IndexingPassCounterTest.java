package io.pgbloat.pass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.io.FileStores;
import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.IoSettings;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.io.store.StoreSettings;
import io.pgbloat.page.FreeSpaceRule;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexMetapage;
import io.pgbloat.page.PageHeader;
import io.pgbloat.page.PageRules;
import io.pgbloat.page.TableColumns;
import io.pgbloat.sample.RelationSlice;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.sample.ScanRange;
import io.pgbloat.scan.IndexRangeResult;
import io.pgbloat.scan.RangeResult;
import io.pgbloat.scan.RangeScanner;
import io.pgbloat.spark.AnalysisPlan;
import io.pgbloat.spark.AnalysisPlanner;
import io.pgbloat.spark.AnalyzeOptions;
import io.pgbloat.testing.SampleData;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sample's compressed tar backup counted as it is indexed, with memory for its files' sums
 * but none to hold pages: a
 * relation whose pages the pass could not count alone (a tuple only the commit log decides, on
 * a page with tuples of another undecided key; an all-zero page) is left to a task, and every
 * other relation's sums are those a task counts on the directory.
 */
class IndexingPassCounterTest {
  /** A btree index of the sample's database app, of 40 blocks. */
  private static final String BTREE = "base/16384/16504";

  /**
   * A btree of two segment files (one full, 1 GB, and a block): the second's first page is no
   * metapage, and the index keeps block 0's, as a task reads it. Built of a sample btree's pages
   * repeated.
   */
  @Test
  void anIndexOfTwoSegmentsKeepsItsOwnMetapage() throws Exception {
    byte[] btree = Files.readAllBytes(SampleData.dataDir().resolve(BTREE));
    int pages = btree.length / PageHeader.BLCKSZ;
    IndexingPassCounter counter = new IndexingPassCounter(1L << 30);
    counter.read("base/5/99999", new InputStream() {
      private long at;

      @Override
      public int read() {
        throw new UnsupportedOperationException();
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (at == (long) IndexingPassCounter.SEGMENT_BLOCKS * PageHeader.BLCKSZ) {
          return -1;
        }
        int page = (int) (at / PageHeader.BLCKSZ);
        int from = page == 0 ? 0 : 1 + (page - 1) % (pages - 1); // the metapage once, then the others over and over
        int n = Math.min(len, PageHeader.BLCKSZ - (int) (at % PageHeader.BLCKSZ));
        System.arraycopy(btree, from * PageHeader.BLCKSZ + (int) (at % PageHeader.BLCKSZ), b, off, n);
        at += n;
        return n;
      }
    });
    counter.read("base/5/99999.1", new ByteArrayInputStream(Arrays.copyOfRange(btree, PageHeader.BLCKSZ,
        2 * PageHeader.BLCKSZ)));
    PageRules rules = new PageRules(false, FreeSpaceRule.EXACT);
    long blocks = IndexingPassCounter.SEGMENT_BLOCKS + 1L;
    RelationSlice slice = new RelationSlice(0, new SegmentedFile("base/5/99999", IndexingPassCounter.SEGMENT_BLOCKS,
        blocks), BlockList.range(0, blocks), null, false, TableColumns.AS_STORED);
    IndexingPassCounts.Settled<IndexRangeResult> settled = counter.counts().indexes(List.of(slice),
        List.of(IndexAccessMethod.BTREE), List.of(IndexAccessMethod.BTREE.defaultFillfactor()), rules);
    assertEquals(java.util.Set.of(0), settled.relations());
    assertEquals(IndexMetapage.of(IndexAccessMethod.BTREE, Arrays.copyOf(btree, PageHeader.BLCKSZ)),
        settled.result().metapages().get(0));
    assertEquals(blocks - 1, settled.result().sums().get(0).pagesAfterFirst());
  }

  @Test
  void whatCannotBeHeldIsLeftToATaskAndTheRestIsWhatATaskCounts() throws Exception {
    AnalysisPlan plan = AnalysisPlanner.plan(new AnalyzeOptions(SampleData.dataDir().toString(),
        RelationFilter.all(), SampleSize.fullScan(), 3, IoSettings.defaults()));
    List<RelationSlice> slices = new ArrayList<>();
    for (int i = 0; i < plan.relations().size(); i++) {
      // counted as TOAST tables, as the pass counts every table: their chunk sums too must agree
      slices.add(RelationSlice.of(i, plan.files().get(i), plan.samples().get(i), true, TableColumns.AS_STORED));
    }
    // room for every file's sums, but for no page nor key
    IndexingPassCounter counter = new IndexingPassCounter(slices.size() * IndexingPassCounter.FILE_SUMS_BYTES);
    IndexingPassCounts.Settled<RangeResult> settled;
    try (FileStore backup = FileStores.open(SampleData.compressedTarBackup().toString(), StoreSettings.DEFAULT, false, counter)) {
      settled = counter.counts().tables(slices, backup, plan.transactions(), plan.pageRules());
    }
    assertTrue(settled.relations().size() > 20, "settled: " + settled.relations().size());
    assertTrue(settled.relations().size() < slices.size() - 5, "left to tasks: " + (slices.size() - settled.relations().size()));
    try (FileStore dir = FileStores.open(SampleData.dataDir().toString())) {
      RangeScanner task = new RangeScanner(dir, plan.transactions(), plan.pageRules(), IoSettings.defaults());
      for (RelationSlice slice : slices) {
        RangeResult counted = task.count(new ScanRange(0, List.of(slice)));
        int r = slice.relation();
        if (settled.relations().contains(r)) {
          assertEquals(counted.sums().get(r), settled.result().sums().get(r), plan.relations().get(r).qualifiedName());
          assertEquals(java.util.Arrays.toString(counted.deadFractionBins().get(r)),
              java.util.Arrays.toString(settled.result().deadFractionBins().get(r)));
        } else {
          assertFalse(settled.result().sums().containsKey(r));
        }
      }
    }
  }
}
