package io.pgbloat.scan;

import io.pgbloat.io.FileStore;
import io.pgbloat.io.SegmentedFile;
import io.pgbloat.page.BtreeMeta;
import io.pgbloat.page.BtreeMetaPage;
import io.pgbloat.page.BtreePage;
import io.pgbloat.page.BtreePageStats;
import io.pgbloat.page.PageHeader;
import io.pgbloat.page.PageProblem;
import io.pgbloat.page.PageVerifier;
import io.pgbloat.stats.BtreeSums;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads every block of one btree index, in order, and sums its pages as pgstatindex does:
 * the exact figures, without Spark. A block that cannot be read or fails the page checks is
 * a bad page with its reason; the rest of the index goes on.
 */
public final class BtreeIndexScanner {
  /** Findings kept per index; the counts stay exact beyond it. */
  public static final int FINDINGS_PER_INDEX = 100;
  /** Blocks read at once: large enough for sequential reads, small enough for any heap. */
  private static final int BLOCKS_PER_READ = 32;

  private final FileStore files;
  private final int segmentBlocks;
  private final PageVerifier verifier;
  private final BtreePage btreePage;

  /**
   * One scanner serves one thread (its verifier reuses scratch space).
   *
   * @param segmentBlocks RELSEG_SIZE from pg_control
   * @param dataChecksums whether the cluster has data checksums (pg_control)
   */
  public BtreeIndexScanner(FileStore files, int segmentBlocks, boolean dataChecksums) {
    this.files = files;
    this.segmentBlocks = segmentBlocks;
    this.verifier = new PageVerifier(dataChecksums);
    this.btreePage = new BtreePage(verifier);
  }

  /** Reads the index whose main fork is {@code relpath} (relative to the data directory). */
  public BtreeIndexScan scan(String relpath) throws IOException {
    SegmentedFile.Measured measured = SegmentedFile.measure(files, relpath, segmentBlocks);
    SegmentedFile file = measured.file();
    BtreeSums sums = new BtreeSums();
    List<PageProblem> findings = new ArrayList<>();
    BtreeMeta meta = BtreeMeta.bad(new PageProblem(BtreePage.BTREE_METAPAGE,
        "the index has no blocks, so no metapage"));
    byte[] buffer = new byte[BLOCKS_PER_READ * PageHeader.BLCKSZ];
    byte[] page = new byte[PageHeader.BLCKSZ];
    for (long first = 0; first < file.blocks(); first += BLOCKS_PER_READ) {
      int count = (int) Math.min(BLOCKS_PER_READ, file.blocks() - first);
      String failure = null;
      try {
        file.readBlocks(files, first, count, buffer);
      } catch (IOException e) {
        failure = "cannot read blocks " + first + ".." + (first + count - 1) + " of " + relpath + ": " + e.getMessage();
      }
      for (int i = 0; i < count; i++) {
        long block = first + i;
        BtreePageStats stats;
        if (failure != null) {
          stats = BtreePageStats.bad(new PageProblem(block, failure));
        } else {
          System.arraycopy(buffer, i * PageHeader.BLCKSZ, page, 0, PageHeader.BLCKSZ);
          if (block == BtreePage.BTREE_METAPAGE) {
            meta = BtreeMetaPage.read(page, verifier);
          }
          stats = btreePage.count(page, block);
        }
        sums.add(stats);
        if (stats.isBad() && findings.size() < FINDINGS_PER_INDEX) {
          findings.add(stats.problem());
        }
      }
      Arrays.fill(buffer, (byte) 0);
    }
    return new BtreeIndexScan(relpath, file.blocks(), meta, sums, findings, measured.problems());
  }
}
