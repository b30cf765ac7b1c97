package io.pgbloat.scan;

import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.IoSettings;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.PageProblem;
import io.pgbloat.page.PageRules;
import io.pgbloat.sample.RelationSlice;
import io.pgbloat.sample.ScanRange;
import io.pgbloat.stats.IndexPageSums;
import java.io.IOException;
import java.util.List;

/**
 * Reads every block of one btree index, in order, and sums its pages as pgstatindex does:
 * the exact figures, without Spark (the job reads sampled blocks the same way, through
 * {@link IndexRangeScanner}). A block that cannot be read or fails the page checks is a bad
 * page with its reason; the rest of the index goes on.
 */
public final class BtreeIndexScanner {
  private final FileStore files;
  private final int segmentBlocks;
  private final IndexRangeScanner pages;

  /**
   * One scanner serves one thread (its verifier reuses scratch space).
   *
   * @param segmentBlocks RELSEG_SIZE from pg_control
   * @param rules how the cluster's pages are checked and counted
   */
  public BtreeIndexScanner(FileStore files, int segmentBlocks, PageRules rules) {
    this.files = files;
    this.segmentBlocks = segmentBlocks;
    this.pages = new IndexRangeScanner(files, rules, new IoSettings(1, IoSettings.DEFAULT_COMBINE_LIMIT, false),
        List.of(IndexAccessMethod.BTREE), List.of(IndexAccessMethod.BTREE.defaultFillfactor()));
  }

  /** Reads the index whose main fork is {@code relpath} (relative to the data directory). */
  public BtreeIndexScan scan(String relpath) throws IOException {
    SegmentedFile.Measured measured = SegmentedFile.measure(files, relpath, segmentBlocks);
    SegmentedFile file = measured.file();
    IndexRangeResult result = pages.count(new ScanRange(0,
        List.of(RelationSlice.ofIndex(0, file, BlockList.range(0, file.blocks()), null))));
    List<PageProblem> findings = result.findings().stream().map(f -> new PageProblem(f.block(), f.reason())).toList();
    return new BtreeIndexScan(relpath, file.blocks(), result.metapages().get(0),
        result.sums().getOrDefault(0, new IndexPageSums(IndexAccessMethod.BTREE)), findings, measured.problems());
  }
}
