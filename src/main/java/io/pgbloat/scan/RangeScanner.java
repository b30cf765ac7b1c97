package io.pgbloat.scan;

import io.pgbloat.io.read.IoSettings;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.page.HeapPage;
import io.pgbloat.page.PageRules;
import io.pgbloat.sample.ScanRange;
import io.pgbloat.xact.ClusterTransactions;
import io.pgbloat.xact.DirtySnapshot;
import io.pgbloat.xact.TransactionStatus;

/**
 * Counts the pages of one {@link ScanRange}: the work of one task, without Spark. Either page
 * by page ({@link #pages}, for the page view) or added into each relation's and stratum's
 * sums ({@link #scan}, for the report).
 */
public final class RangeScanner implements RangeCounter<RangeResult> {
  /** Findings kept per range; the counts stay exact beyond it. */
  public static final int FINDINGS_PER_RANGE = 100;

  private final FileStore files;
  private final IoSettings io;
  private final int chunkBlocks;
  private final TransactionStatus status;
  private final HeapPage heapPage;
  private final HeapPage toastPage;

  /**
   * What an executor needs to count table ranges: the cluster's transactions, page rules, I/O
   * settings, and the chunk length to keep sums by (0 for none).
   */
  public record Factory(ClusterTransactions transactions, PageRules rules, IoSettings io, int chunkBlocks)
      implements RangeCounter.Factory<RangeResult> {
    @Override
    public RangeCounter<RangeResult> on(FileStore files) {
      return new RangeScanner(files, transactions, rules, io, chunkBlocks);
    }
  }

  public RangeScanner(FileStore files, ClusterTransactions transactions, PageRules rules, IoSettings io) {
    this(files, transactions, rules, io, 0);
  }

  /** A scanner that also keeps sums per chunk of {@code chunkBlocks} blocks (none when 0). */
  public RangeScanner(FileStore files, ClusterTransactions transactions, PageRules rules, IoSettings io,
      int chunkBlocks) {
    this.chunkBlocks = chunkBlocks;
    this.files = files;
    this.io = io;
    this.status = new TransactionStatus(files, transactions);
    DirtySnapshot visibility = new DirtySnapshot(status);
    this.heapPage = new HeapPage(rules, visibility);
    this.toastPage = new HeapPage(rules, visibility, true);
  }

  /** The pages of {@code range}, one by one; close it when done. */
  public RangePages pages(ScanRange range) {
    return new RangePages(files, io, status, heapPage, toastPage, range);
  }

  /** The range's pages added into per-relation, per-stratum sums. */
  @Override
  public RangeResult count(ScanRange range) {
    TablePageTally tally = new TablePageTally(chunkBlocks);
    try (RangePages pages = pages(range)) {
      while (pages.hasNext()) {
        ScannedPage p = pages.next();
        tally.add(p.relation(), p.block(), p.stratum(), p.stats(), p.unsettled());
      }
      return tally.result(pages.totals());
    }
  }
}
