package io.pgbloat.rebuild;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.catalog.DataDirectory;
import io.pgbloat.catalog.Database;
import io.pgbloat.catalog.RelKind;
import io.pgbloat.catalog.Relation;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.io.store.HadoopFileStore;
import io.pgbloat.page.HeapPage;
import io.pgbloat.page.HeapPageStats;
import io.pgbloat.page.HeapTupleHeader;
import io.pgbloat.page.ItemId;
import io.pgbloat.page.PageHeader;
import io.pgbloat.page.TupleVisibility;
import io.pgbloat.stats.Measure;
import io.pgbloat.stats.PartialSums;
import io.pgbloat.testing.SampleData;
import io.pgbloat.xact.DirtySnapshot;
import io.pgbloat.xact.TransactionStatus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The packing model on the real pages of the shipped sample: for every relation of the shop
 * database, the pages {@link TableRewrite} predicts from the page sums against a replay of
 * raw_heap_insert over the same live tuples in their physical order, as VACUUM FULL reads them.
 * (A TOAST table is rewritten in its owner's order rather than its own; the chunk sizes are
 * the same, and the replay in its own order is the closest this test can come.)
 */
class SampleTablesRewriteTest {

  @Test
  void modelFromPageSumsMatchesTheReplayOfEverySampleRelation() throws IOException {
    List<String> report = new ArrayList<>();
    int compared = 0;
    try (HadoopFileStore files = HadoopFileStore.open(SampleData.dataDir().toString(), new Configuration())) {
      DataDirectory dir = DataDirectory.open(files);
      TupleVisibility live = new DirtySnapshot(new TransactionStatus(files, dir.transactions()));
      for (Database db : dir.databases()) {
        if (!db.name().equals("shop")) {
          continue;
        }
        for (Relation r : dir.relations(db)) {
          SegmentedFile file = SegmentedFile.measure(files, r.relpath(), dir.control().segmentBlocks()).file();
          PartialSums sums = new PartialSums();
          NextFitRewrite replay = new NextFitRewrite(r.fillfactor());
          HeapPage heapPage = new HeapPage(dir.pageRules(), live, r.kind() == RelKind.TOAST_TABLE);
          byte[] page = new byte[PageHeader.BLCKSZ];
          for (long block = 0; block < file.blocks(); block++) {
            file.readBlocks(files, block, 1, page);
            HeapPageStats stats = heapPage.count(page, block);
            assertTrue(!stats.isBad(), r.qualifiedName() + " block " + block + ": " + stats.problem());
            sums.add(stats);
            replayLiveTuples(page, live, replay);
          }
          double squares = (double) sums.sum(Measure.LIVE_ITEM_SQUARES) * PageHeader.BLCKSZ;
          double rounding = file.blocks() * (PageHeader.BLCKSZ / 2.0);
          double modelled = r.kind() == RelKind.TOAST_TABLE
              ? ToastRewrite.pages(sums.sum(Measure.TUPLE_COUNT), new ToastRewrite.ChunkTotals(
                  sums.sum(Measure.TOAST_FULL_CHUNKS), sums.sum(Measure.TOAST_LAST_OF_ONE),
                  sums.sum(Measure.TOAST_LAST_OF_TWO), sums.sum(Measure.TOAST_LAST_OF_THREE)),
                  sums.sum(Measure.LIVE_ITEM_BYTES), squares, rounding)
              : TableRewrite.pages(sums.sum(Measure.TUPLE_COUNT), sums.sum(Measure.LIVE_ITEM_BYTES), squares,
                  rounding, r.fillfactor());
          report.add(r.qualifiedName() + " ff " + r.fillfactor() + ": " + file.blocks() + " blocks, replay "
              + replay.pages() + ", model " + modelled);
          // a heap: one page either way, or 1 %. A TOAST table: 4 %, what ToastRewrite's replay
          // of synthetic values was measured to miss by (pg_toast_16514: 69 pages replayed, 70
          // modelled; pg_toast_2618: 64, 66), with this replay in the old table's order, not
          // in the owner's order the rewrite uses
          double allowed = r.kind() == RelKind.TOAST_TABLE ? 0.04 * replay.pages() : 0.01 * replay.pages();
          assertTrue(Math.abs(modelled - replay.pages()) <= Math.max(1, allowed), String.join("\n", report));
          compared++;
        }
      }
    }
    System.out.println(String.join("\n", report));
    assertTrue(compared > 10, "compared " + compared + " relations");
    assertEquals(compared, report.size());
  }

  /** The live tuples of {@code page}, in line pointer order, into the replay. */
  private static void replayLiveTuples(byte[] page, TupleVisibility live, NextFitRewrite replay) {
    if (PageHeader.isNew(page)) {
      return;
    }
    for (int off = 1; off <= PageHeader.maxOffsetNumber(page); off++) {
      int word = ItemId.word(page, off);
      if (ItemId.flags(word) != ItemId.LP_NORMAL) {
        continue;
      }
      int tuple = ItemId.offset(word);
      if (live.isLive(HeapTupleHeader.xmin(page, tuple), HeapTupleHeader.xmax(page, tuple),
          HeapTupleHeader.infomask(page, tuple), HeapTupleHeader.xvac(page, tuple))) {
        replay.add(ItemId.length(word));
      }
    }
  }
}
