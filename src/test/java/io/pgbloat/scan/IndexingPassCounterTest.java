package io.pgbloat.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.io.FileStore;
import io.pgbloat.io.FileStores;
import io.pgbloat.io.IoSettings;
import io.pgbloat.sample.RelationSlice;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.sample.ScanRange;
import io.pgbloat.spark.AnalysisPlan;
import io.pgbloat.spark.AnalysisPlanner;
import io.pgbloat.spark.AnalyzeOptions;
import io.pgbloat.testing.SampleData;
import java.util.ArrayList;
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
  @Test
  void whatCannotBeHeldIsLeftToATaskAndTheRestIsWhatATaskCounts() throws Exception {
    AnalysisPlan plan = AnalysisPlanner.plan(new AnalyzeOptions(SampleData.dataDir().toString(),
        RelationFilter.all(), SampleSize.fullScan(), 3, IoSettings.defaults()));
    List<RelationSlice> slices = new ArrayList<>();
    for (int i = 0; i < plan.relations().size(); i++) {
      // counted as TOAST tables, as the pass counts every table: their chunk sums too must agree
      slices.add(RelationSlice.of(i, plan.files().get(i), plan.samples().get(i), true));
    }
    // room for every file's sums, but for no page nor key
    IndexingPassCounter counter = new IndexingPassCounter(slices.size() * IndexingPassCounter.FILE_SUMS_BYTES);
    IndexingPassCounts.Settled<RangeResult> settled;
    try (FileStore backup = FileStores.open(SampleData.compressedTarBackup().toString(), counter)) {
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
