package io.pgbloat.scan;

import io.pgbloat.page.BtreeMeta;
import io.pgbloat.page.PageProblem;
import io.pgbloat.stats.BtreeSums;
import io.pgbloat.stats.IndexFigures;
import java.util.List;

/**
 * What a full read of one btree index found.
 *
 * @param relpath the main fork's path
 * @param blocks N, its length in blocks as mdnblocks counts them
 * @param meta the metapage (with a problem when it could not be trusted)
 * @param sums exact sums over blocks 1 to N - 1
 * @param findings the first {@link RangeScanner#FINDINGS_PER_RANGE} bad pages, metapage included
 * @param fileProblems what is wrong with the segment files (missing, partial blocks)
 */
public record BtreeIndexScan(
    String relpath, long blocks, BtreeMeta meta, BtreeSums sums, List<PageProblem> findings,
    List<String> fileProblems) {

  public BtreeIndexScan {
    findings = List.copyOf(findings);
    fileProblems = List.copyOf(fileProblems);
  }

  /** pgstatindex's ten columns. */
  public IndexFigures figures() {
    return IndexFigures.of(meta, blocks, sums.totals());
  }

  /** Bad pages, the metapage included when it failed the page checks. */
  public long badPages() {
    return sums.badPages();
  }
}
