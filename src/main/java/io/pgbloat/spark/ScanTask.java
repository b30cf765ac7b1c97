package io.pgbloat.spark;

import io.pgbloat.io.FileStore;
import io.pgbloat.io.FileStores;
import io.pgbloat.io.IoSettings;
import io.pgbloat.page.PageRules;
import io.pgbloat.sample.ScanRange;
import io.pgbloat.scan.RangeResult;
import io.pgbloat.scan.RangeScanner;
import io.pgbloat.xact.ClusterTransactions;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;

/** The executor side of the job: opens the data directory and scans the partition's ranges. */
final class ScanTask implements FlatMapFunction<Iterator<ScanRange>, RangeResult> {
  private static final long serialVersionUID = 1L;

  private final String dataDir;
  private final ClusterTransactions transactions;
  private final PageRules pageRules;
  private final IoSettings io;

  ScanTask(String dataDir, ClusterTransactions transactions, PageRules pageRules, IoSettings io) {
    this.dataDir = dataDir;
    this.transactions = transactions;
    this.pageRules = pageRules;
    this.io = io;
  }

  @Override
  public Iterator<RangeResult> call(Iterator<ScanRange> ranges) throws Exception {
    List<RangeResult> results = new ArrayList<>();
    try (FileStore files = FileStores.forScan(dataDir, io)) {
      RangeScanner scanner = new RangeScanner(files, transactions, pageRules, io);
      while (ranges.hasNext()) {
        results.add(scanner.scan(ranges.next()));
      }
    }
    return results.iterator();
  }
}
