package io.pgbloat.spark;

import io.pgbloat.io.FileStore;
import io.pgbloat.io.FileStores;
import io.pgbloat.io.IoSettings;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.PageRules;
import io.pgbloat.sample.ScanRange;
import io.pgbloat.scan.IndexRangeResult;
import io.pgbloat.scan.IndexRangeScanner;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;

/** The executor side of the index job: opens the data directory and counts the partition's index pages. */
final class IndexScanTask implements FlatMapFunction<Iterator<ScanRange>, IndexRangeResult> {
  private static final long serialVersionUID = 1L;

  private final String dataDir;
  private final PageRules pageRules;
  private final IoSettings io;
  private final ArrayList<IndexAccessMethod> accessMethods;

  /** @param accessMethods per index, its access method (null for one that is not read) */
  IndexScanTask(String dataDir, PageRules pageRules, IoSettings io, List<IndexAccessMethod> accessMethods) {
    this.dataDir = dataDir;
    this.pageRules = pageRules;
    this.io = io;
    this.accessMethods = new ArrayList<>(accessMethods);
  }

  @Override
  public Iterator<IndexRangeResult> call(Iterator<ScanRange> ranges) throws Exception {
    List<IndexRangeResult> results = new ArrayList<>();
    try (FileStore files = FileStores.forScan(dataDir, io)) {
      IndexRangeScanner scanner = new IndexRangeScanner(files, pageRules, io, accessMethods);
      while (ranges.hasNext()) {
        results.add(scanner.scan(ranges.next()));
      }
    }
    return results.iterator();
  }
}
