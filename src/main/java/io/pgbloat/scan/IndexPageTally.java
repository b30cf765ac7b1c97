package io.pgbloat.scan;

import io.pgbloat.io.read.ReadTotals;
import io.pgbloat.page.BtreeMeta;
import io.pgbloat.page.BtreeMetaPage;
import io.pgbloat.page.BtreePage;
import io.pgbloat.page.BtreePageStats;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexMetapage;
import io.pgbloat.page.IndexPageStats;
import io.pgbloat.page.PageProblem;
import io.pgbloat.stats.BtreeSums;
import io.pgbloat.stats.IndexPageSums;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Index pages added up as they are counted, per index, into an {@link IndexRangeResult}: a
 * btree's pages into its {@link BtreeSums}, its metapage kept from block 0; another method's
 * into its {@link IndexPageSums}, a hash or GIN metapage's figures kept from block 0. By a
 * task's {@link IndexRangeScanner}, and by the {@code pass.IndexingPassCounts} of a backup counted as
 * it was indexed.
 */
public final class IndexPageTally {
  private final Map<Integer, BtreeSums> sums = new HashMap<>();
  private final Map<Integer, BtreeMeta> metas = new HashMap<>();
  private final Map<Integer, IndexPageSums> pageSums = new HashMap<>();
  private final Map<Integer, IndexMetapage> metapages = new HashMap<>();
  private final List<PageFinding> findings = new ArrayList<>();

  /** Adds a btree page, {@code page} its bytes (null when it could not be read). */
  public void addBtree(int relation, BtreePageStats stats, byte[] page, BtreePage btreePage) {
    if (page != null && stats.block() == BtreePage.BTREE_METAPAGE) {
      addBtreeMeta(relation, page, btreePage);
    }
    sums.computeIfAbsent(relation, r -> new BtreeSums()).add(stats);
    finding(relation, stats.problem());
  }

  /** Adds a page of another method, {@code page} its bytes (null when it could not be read). */
  public void addPage(int relation, IndexAccessMethod am, IndexPageStats stats, byte[] page, boolean readWhole) {
    if (page != null && stats.block() == 0 && !stats.isBad()) {
      addMetapage(relation, am, page);
    }
    pageSums.computeIfAbsent(relation, r -> new IndexPageSums()).add(stats, readWhole);
    finding(relation, stats.problem());
  }

  /** Keeps a btree's metapage, {@code page} its block 0. */
  public void addBtreeMeta(int relation, byte[] page, BtreePage btreePage) {
    metas.put(relation, BtreeMetaPage.read(page, btreePage));
  }

  /** Keeps the figures of a hash or GIN metapage, {@code page} a sound block 0 of an index of {@code am}. */
  public void addMetapage(int relation, IndexAccessMethod am, byte[] page) {
    IndexMetapage meta = IndexMetapage.of(am, page);
    if (meta != null) {
      metapages.put(relation, meta);
    }
  }

  /** Adds btree pages already added up. */
  public void addAll(int relation, BtreeSums counted) {
    sums.computeIfAbsent(relation, r -> new BtreeSums()).merge(counted);
  }

  /** Adds another method's pages already added up. */
  public void addAll(int relation, IndexPageSums counted) {
    pageSums.computeIfAbsent(relation, r -> new IndexPageSums()).merge(counted);
  }

  private void finding(int relation, PageProblem problem) {
    if (problem != null && findings.size() < RangeScanner.FINDINGS_PER_RANGE) {
      findings.add(new PageFinding(relation, problem.block(), problem.reason()));
    }
  }

  public IndexRangeResult result(ReadTotals reads) {
    return new IndexRangeResult(sums, metas, pageSums, metapages, findings, reads);
  }
}
