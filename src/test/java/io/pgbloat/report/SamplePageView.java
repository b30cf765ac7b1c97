package io.pgbloat.report;

import io.pgbloat.catalog.DataDirectory;
import io.pgbloat.catalog.Database;
import io.pgbloat.catalog.Relation;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.io.store.HadoopFileStore;
import io.pgbloat.page.HeapPage;
import io.pgbloat.page.HeapPageStats;
import io.pgbloat.page.PageHeader;
import io.pgbloat.page.PageVerifier;
import io.pgbloat.stats.DeadFractionHistogram;
import io.pgbloat.xact.DirtySnapshot;
import io.pgbloat.xact.TransactionStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * The per-page dead fractions of some relations of a data directory, read page by page on the
 * driver as {@code io.pgbloat.bench.PageValuesExport} does: a stand-in for the page-level
 * view the report's histograms will come from in a real run. Every page is read; bad pages
 * are left out, as the histogram's contract says.
 */
final class SamplePageView {
  private SamplePageView() {}

  static List<DeadFractionHistogram> histograms(String dataDir, Collection<Relation> wanted) {
    List<DeadFractionHistogram> histograms = new ArrayList<>();
    try (HadoopFileStore files = HadoopFileStore.open(dataDir, new Configuration())) {
      DataDirectory dir = DataDirectory.open(files);
      HeapPage heapPage = new HeapPage(dir.pageRules(),
          new DirtySnapshot(new TransactionStatus(files, dir.transactions())));
      for (Database db : dir.databases()) {
        for (Relation r : dir.relations(db)) {
          if (!wanted.contains(r) || histograms.stream().anyMatch(h -> h.relation().equals(r))) {
            continue; // a shared catalog is listed with every database: count it once
          }
          SegmentedFile file = SegmentedFile.measure(files, r.relpath(), dir.control().segmentBlocks()).file();
          byte[] page = new byte[PageHeader.BLCKSZ];
          List<Long> deadBytes = new ArrayList<>();
          for (long b = 0; b < file.blocks(); b++) {
            file.readBlocks(files, b, 1, page);
            HeapPageStats s = heapPage.count(page, b);
            if (!s.isBad()) {
              deadBytes.add((long) s.deadTupleLen());
            }
          }
          histograms.add(DeadFractionHistogram.ofDeadBytes(r, deadBytes.stream().mapToLong(Long::longValue).toArray()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return histograms;
  }
}
