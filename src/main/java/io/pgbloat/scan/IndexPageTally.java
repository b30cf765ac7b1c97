package io.pgbloat.scan;

import io.pgbloat.io.read.ReadTotals;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexMetapage;
import io.pgbloat.page.IndexPageStats;
import io.pgbloat.page.PageProblem;
import io.pgbloat.reuse.ChunkKey;
import io.pgbloat.reuse.ChunkSums;
import io.pgbloat.stats.IndexPageSums;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Index pages added up as they are counted, per index, into an {@link IndexRangeResult}: its
 * pages into its {@link IndexPageSums}, its metapage's figures kept from a sound block 0. By a
 * task's {@link IndexRangeScanner}, and by the {@code pass.IndexingPassCounts} of a backup
 * counted as it was indexed.
 */
public final class IndexPageTally {
  private final Map<Integer, IndexPageSums> sums = new HashMap<>();
  private final Map<Integer, IndexMetapage> metapages = new HashMap<>();
  private final List<PageFinding> findings = new ArrayList<>();
  private final int chunkBlocks;
  private final Map<ChunkKey, ChunkSums> chunks = new HashMap<>();

  /** A tally of sums per index only. */
  public IndexPageTally() {
    this(0);
  }

  /** A tally that also keeps sums per chunk of {@code chunkBlocks} blocks (none when 0). */
  public IndexPageTally(int chunkBlocks) {
    this.chunkBlocks = chunkBlocks;
  }

  /**
   * Adds a page of an index of {@code am}, {@code page} its bytes (null when it could not be
   * read), {@code readWhole} when the plan reads every page of its kind.
   */
  public void add(int relation, IndexAccessMethod am, IndexPageStats stats, byte[] page, boolean readWhole) {
    if (page != null && stats.block() == 0 && !stats.isBad()) {
      addMetapage(relation, am, page);
    }
    sumsOf(relation, am).add(stats, readWhole);
    if (chunkBlocks > 0) {
      chunks.computeIfAbsent(new ChunkKey(relation, stats.block() / chunkBlocks),
          k -> ChunkSums.ofIndex(new IndexPageSums(am))).add(stats, readWhole);
    }
    finding(relation, stats.problem());
  }

  /** Keeps the figures of a metapage, {@code page} a sound block 0 of an index of {@code am}. */
  public void addMetapage(int relation, IndexAccessMethod am, byte[] page) {
    IndexMetapage meta = IndexMetapage.of(am, page);
    if (meta != null) {
      metapages.put(relation, meta);
    }
  }

  /** Adds pages of an index of {@code am} already added up. */
  public void addAll(int relation, IndexAccessMethod am, IndexPageSums counted) {
    sumsOf(relation, am).merge(counted);
  }

  /** The sums of {@code relation}, an index of {@code am}, made at its first page (no lambda: every page asks). */
  private IndexPageSums sumsOf(int relation, IndexAccessMethod am) {
    IndexPageSums of = sums.get(relation);
    if (of == null) {
      of = new IndexPageSums(am);
      sums.put(relation, of);
    }
    return of;
  }

  private void finding(int relation, PageProblem problem) {
    if (problem != null && findings.size() < RangeScanner.FINDINGS_PER_RANGE) {
      findings.add(new PageFinding(relation, problem.block(), problem.reason()));
    }
  }

  public IndexRangeResult result(ReadTotals reads) {
    return new IndexRangeResult(sums, metapages, findings, reads, chunks);
  }
}
