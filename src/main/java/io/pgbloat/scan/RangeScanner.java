package io.pgbloat.scan;

import io.pgbloat.io.BlockRead;
import io.pgbloat.io.BlockReader;
import io.pgbloat.io.FileStore;
import io.pgbloat.io.IoSettings;
import io.pgbloat.io.PrefetchStream;
import io.pgbloat.page.HeapPage;
import io.pgbloat.page.HeapPageStats;
import io.pgbloat.page.PageHeader;
import io.pgbloat.page.PageProblem;
import io.pgbloat.page.PageVerifier;
import io.pgbloat.sample.RelationSlice;
import io.pgbloat.sample.ScanRange;
import io.pgbloat.stats.StratifiedSums;
import io.pgbloat.xact.ClusterTransactions;
import io.pgbloat.xact.DirtySnapshot;
import io.pgbloat.xact.TransactionStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the blocks of one {@link ScanRange} through a {@link PrefetchStream} per slice,
 * counts each page and adds it into its relation's and stratum's sums: the work of one task,
 * without Spark. A block that cannot be read is a bad page with the reason; the rest of the
 * range goes on.
 */
public final class RangeScanner {
  /** Findings kept per range; the counts stay exact beyond it. */
  public static final int FINDINGS_PER_RANGE = 100;

  private final FileStore files;
  private final IoSettings io;
  private final HeapPage heapPage;
  private final HeapPage toastPage;

  public RangeScanner(FileStore files, ClusterTransactions transactions, boolean dataChecksums, IoSettings io) {
    this.files = files;
    this.io = io;
    TransactionStatus status = new TransactionStatus(files, transactions);
    PageVerifier verifier = new PageVerifier(dataChecksums);
    DirtySnapshot visibility = new DirtySnapshot(status);
    this.heapPage = new HeapPage(verifier, visibility);
    this.toastPage = new HeapPage(verifier, visibility, true);
  }

  public RangeResult scan(ScanRange range) {
    Map<Integer, StratifiedSums> sums = new HashMap<>();
    List<PageFinding> findings = new ArrayList<>();
    byte[] page = new byte[PageHeader.BLCKSZ];
    try (BlockReader reader = new BlockReader(files, io)) {
      for (RelationSlice slice : range.slices()) {
        StratifiedSums relationSums = sums.computeIfAbsent(slice.relation(), r -> new StratifiedSums());
        HeapPage counter = slice.toast() ? toastPage : heapPage;
        PrefetchStream stream = reader.stream(slice.file(), slice.blocks());
        for (long position = 0; stream.hasNext(); position++) {
          BlockRead read = stream.next();
          HeapPageStats stats;
          if (read.failure() != null) {
            stats = HeapPageStats.bad(new PageProblem(read.block(), read.failure()));
          } else {
            System.arraycopy(read.buffer(), read.offset(), page, 0, PageHeader.BLCKSZ);
            stats = counter.count(page, read.block());
          }
          relationSums.add(slice.stratumAt(position), stats);
          if (stats.isBad() && findings.size() < FINDINGS_PER_RANGE) {
            findings.add(new PageFinding(slice.relation(), read.block(), stats.problem().reason()));
          }
        }
      }
      return new RangeResult(sums, findings, reader.counters().blocks(), reader.counters().reads());
    }
  }
}
