package io.pgbloat.scan;

import io.pgbloat.io.FileStore;
import io.pgbloat.page.HeapPage;
import io.pgbloat.page.HeapPageStats;
import io.pgbloat.page.PageHeader;
import io.pgbloat.page.PageProblem;
import io.pgbloat.page.PageVerifier;
import io.pgbloat.sample.BlockList;
import io.pgbloat.sample.RelationSlice;
import io.pgbloat.sample.ScanRange;
import io.pgbloat.stats.StratifiedSums;
import io.pgbloat.xact.ClusterTransactions;
import io.pgbloat.xact.DirtySnapshot;
import io.pgbloat.xact.TransactionStatus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the blocks of one {@link ScanRange}, counts each page and adds it into the
 * relation's {@link PartialSums}: the work of one task, without Spark. Adjacent blocks are
 * read together, up to {@link #READ_BLOCKS} at a time.
 */
public final class RangeScanner {
  /** Findings kept per range; the counts stay exact beyond it. */
  public static final int FINDINGS_PER_RANGE = 100;
  /** Blocks per read call: 64 × 8 KB = 512 KB, large enough that sequential reads run at disk speed. */
  static final int READ_BLOCKS = 64;

  private final FileStore files;
  private final HeapPage heapPage;

  public RangeScanner(FileStore files, ClusterTransactions transactions, boolean dataChecksums) {
    this.files = files;
    TransactionStatus status = new TransactionStatus(files, transactions);
    this.heapPage = new HeapPage(new PageVerifier(dataChecksums), new DirtySnapshot(status));
  }

  public RangeResult scan(ScanRange range) {
    Map<Integer, StratifiedSums> sums = new HashMap<>();
    List<PageFinding> findings = new ArrayList<>();
    byte[] buffer = new byte[READ_BLOCKS * PageHeader.BLCKSZ];
    byte[] page = new byte[PageHeader.BLCKSZ];
    long blocksRead = 0;
    long readCalls = 0;
    for (RelationSlice slice : range.slices()) {
      StratifiedSums relationSums = sums.computeIfAbsent(slice.relation(), r -> new StratifiedSums());
      BlockList blocks = slice.blocks();
      long position = 0; // of the next block within the slice, for its stratum
      for (int run = 0; run < blocks.runCount(); run++) {
        long start = blocks.runStart(run);
        int length = blocks.runLength(run);
        for (int done = 0; done < length; ) {
          int count = Math.min(READ_BLOCKS, length - done);
          long first = start + done;
          String readFailure = read(slice, first, count, buffer);
          readCalls++;
          blocksRead += count;
          for (int i = 0; i < count; i++) {
            HeapPageStats stats;
            if (readFailure != null) {
              stats = HeapPageStats.bad(new PageProblem(first + i, readFailure));
            } else {
              System.arraycopy(buffer, i * PageHeader.BLCKSZ, page, 0, PageHeader.BLCKSZ);
              stats = heapPage.count(page, first + i);
            }
            relationSums.add(slice.stratumAt(position++), stats);
            if (stats.isBad() && findings.size() < FINDINGS_PER_RANGE) {
              findings.add(new PageFinding(slice.relation(), first + i, stats.problem().reason()));
            }
          }
          done += count;
        }
      }
    }
    return new RangeResult(sums, findings, blocksRead, readCalls);
  }

  /**
   * Reads the blocks, or says why not: a file that vanished, shrank or cannot be read makes
   * its blocks bad pages, and the rest of the report stands.
   */
  private String read(RelationSlice slice, long first, int count, byte[] buffer) {
    try {
      slice.file().readBlocks(files, first, count, buffer);
      return null;
    } catch (IOException e) {
      return "read failed (" + e.getClass().getSimpleName() + ": " + e.getMessage()
          + "); the file changed or vanished since the plan was made, or cannot be read";
    }
  }
}
