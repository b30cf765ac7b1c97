package io.pgbloat.bench;

import io.pgbloat.catalog.DataDirectory;
import io.pgbloat.catalog.Database;
import io.pgbloat.catalog.Relation;
import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.io.store.HadoopFileStore;
import io.pgbloat.page.HeapPage;
import io.pgbloat.page.HeapPageStats;
import io.pgbloat.page.PageHeader;
import io.pgbloat.sample.VisibilityMap;
import io.pgbloat.xact.DirtySnapshot;
import io.pgbloat.xact.TransactionStatus;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;

/**
 * Writes every page's figures of the chosen relations of a data directory, with its
 * visibility-map bit, as gzipped CSV: the fixture of the sampling tests, which then run the
 * estimator thousands of times without a server. The page figures come from this tool's own
 * full scan, which the integration tests hold equal to pgstattuple.
 *
 * <p>usage: PageValuesExport DATA_DIR OUT.csv.gz DATABASE PATTERN...
 */
public final class PageValuesExport {
  private PageValuesExport() {}

  public static void main(String[] args) throws Exception {
    String dataDir = args[0];
    Path out = Path.of(args[1]);
    RelationFilter filter = new RelationFilter(List.of(args[2]), List.of(args).subList(3, args.length));
    try (HadoopFileStore files = HadoopFileStore.open(dataDir, new Configuration());
        PrintWriter w = new PrintWriter(new OutputStreamWriter(new GZIPOutputStream(Files.newOutputStream(out)),
            StandardCharsets.UTF_8))) {
      DataDirectory dir = DataDirectory.open(files);
      HeapPage heapPage = new HeapPage(dir.pageRules(),
          new DirtySnapshot(new TransactionStatus(files, dir.transactions())));
      w.println("relation,block,tuple_count,tuple_len,dead_tuple_count,dead_tuple_len,free_space,all_visible");
      for (Database db : dir.databases()) {
        List<Relation> chosen = new ArrayList<>();
        for (Relation r : dir.relations(db)) {
          if (!r.isShared() && filter.selects(r)) {
            chosen.add(r);
          }
        }
        for (Relation r : chosen) {
          SegmentedFile file = SegmentedFile.measure(files, r.relpath(), dir.control().segmentBlocks()).file();
          BlockList visible = VisibilityMap.allVisible(files, r.relpath(), dir.control().segmentBlocks(),
              file.blocks(), dir.control().dataChecksums(), new ArrayList<>());
          java.util.Set<Long> av = new java.util.HashSet<>();
          for (int run = 0; run < visible.runCount(); run++) {
            for (long b = visible.runStart(run); b < visible.runStart(run) + visible.runLength(run); b++) {
              av.add(b);
            }
          }
          byte[] page = new byte[PageHeader.BLCKSZ];
          String name = r.toastOf().isEmpty() ? r.schema() + "." + r.name() : "toast of " + r.toastOf();
          for (long b = 0; b < file.blocks(); b++) {
            file.readBlocks(files, b, 1, page);
            HeapPageStats s = heapPage.count(page, b);
            w.printf("%s,%d,%d,%d,%d,%d,%d,%d%n", name, b, s.tupleCount(), s.tupleLen(), s.deadTupleCount(),
                s.deadTupleLen(), s.freeSpace(), av.contains(b) ? 1 : 0);
          }
        }
      }
    }
  }
}
