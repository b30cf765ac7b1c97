package io.pgbloat.scan;

import io.pgbloat.figures.IndexFigures;
import io.pgbloat.figures.IndexTotals;
import io.pgbloat.page.IndexMetapage;
import io.pgbloat.page.PageProblem;
import io.pgbloat.stats.IndexPageSums;
import java.util.List;

/**
 * What a full read of one btree index found.
 *
 * @param relpath the main fork's path
 * @param blocks N, its length in blocks as mdnblocks counts them
 * @param meta the metapage's figures, or null when block 0 was missing or bad (a finding says why)
 * @param sums exact sums over its pages
 * @param findings the first {@link RangeScanner#FINDINGS_PER_RANGE} bad pages, metapage included
 * @param fileProblems what is wrong with the segment files (missing, partial blocks)
 */
public record BtreeIndexScan(
    String relpath, long blocks, IndexMetapage meta, IndexPageSums sums, List<PageProblem> findings,
    List<String> fileProblems) {

  public BtreeIndexScan {
    findings = List.copyOf(findings);
    fileProblems = List.copyOf(fileProblems);
  }

  /** pgstatindex's ten columns. */
  public IndexFigures figures() {
    return IndexFigures.of(meta, blocks, IndexTotals.read(sums));
  }

  /** Bad pages, the metapage included when it failed the page checks. */
  public long badPages() {
    return sums.badPages();
  }
}
