package io.pgbloat.scan;

import io.pgbloat.io.read.ReadTotals;
import io.pgbloat.page.HeapPageStats;
import io.pgbloat.reuse.ChunkKey;
import io.pgbloat.reuse.ChunkSums;
import io.pgbloat.sample.Stratum;
import io.pgbloat.stats.DeadFractionHistogram;
import io.pgbloat.stats.StratifiedSums;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Table pages added up as they are counted, per relation and stratum, into a
 * {@link RangeResult}: by a task's {@link RangeScanner}, and by the {@code pass.IndexingPassCounts}
 * of a backup counted as it was indexed.
 */
public final class TablePageTally {
  private final Map<Integer, StratifiedSums> sums = new HashMap<>();
  private final Map<Integer, long[]> bins = new HashMap<>();
  private final List<PageFinding> findings = new ArrayList<>();
  private final int chunkBlocks;
  private final Map<ChunkKey, ChunkSums> chunks = new HashMap<>();

  /** A tally of sums per relation and stratum only. */
  public TablePageTally() {
    this(0);
  }

  /** A tally that also keeps sums per chunk of {@code chunkBlocks} blocks (none when 0). */
  public TablePageTally(int chunkBlocks) {
    this.chunkBlocks = chunkBlocks;
  }

  /** Adds one page of {@code relation}, at {@code block}, of {@code stratum}. */
  public void add(int relation, long block, Stratum stratum, HeapPageStats page) {
    add(relation, block, stratum, page, false);
  }

  /**
   * Adds one page of {@code relation}, at {@code block}, of {@code stratum}, {@code unsettled}
   * when its count stood on an answer a later copy may change.
   */
  public void add(int relation, long block, Stratum stratum, HeapPageStats page, boolean unsettled) {
    if (chunkBlocks > 0) {
      chunks.computeIfAbsent(new ChunkKey(relation, block / chunkBlocks), k -> ChunkSums.ofTable()).add(page, unsettled);
    }
    sums.computeIfAbsent(relation, r -> new StratifiedSums()).add(stratum, page);
    if (!page.isBad()) {
      bins(relation)[DeadFractionHistogram.binOfDeadBytes(page.deadTupleLen())]++;
    } else if (findings.size() < RangeScanner.FINDINGS_PER_RANGE) {
      findings.add(new PageFinding(relation, block, page.problem().reason()));
    }
  }

  /** Adds pages of {@code relation} already added up: their sums and dead-fraction bins. */
  public void addAll(int relation, StratifiedSums counted, long[] countedBins) {
    sums.computeIfAbsent(relation, r -> new StratifiedSums()).merge(counted);
    if (Arrays.stream(countedBins).anyMatch(pages -> pages > 0)) { // bins for good pages only, as add keeps them
      long[] into = bins(relation);
      for (int i = 0; i < into.length; i++) {
        into[i] += countedBins[i];
      }
    }
  }

  private long[] bins(int relation) {
    return bins.computeIfAbsent(relation, r -> new long[DeadFractionHistogram.BINS]);
  }

  public RangeResult result(ReadTotals reads) {
    return new RangeResult(sums, bins, findings, reads, chunks);
  }
}
