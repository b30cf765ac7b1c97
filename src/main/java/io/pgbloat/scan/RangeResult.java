package io.pgbloat.scan;

import io.pgbloat.io.read.ReadTotals;
import io.pgbloat.stats.StratifiedSums;
import io.pgbloat.reuse.ChunkKey;
import io.pgbloat.reuse.ChunkSums;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * What one range's scan produced: exact sums per relation and stratum, and the first few findings (the
 * counts in the sums are exact whatever the number of findings kept).
 *
 * @param sums per relation index
 * @param deadFractionBins per relation index, its good pages counted by dead fraction
 *     ({@link io.pgbloat.stats.DeadFractionHistogram#binOfDeadBytes})
 * @param findings bad pages, at most {@link RangeScanner#FINDINGS_PER_RANGE}
 * @param reads what was read from disk
 * @param chunks per chunk read, of a scan asked to keep its sums by chunk, their sums
 */
public record RangeResult(Map<Integer, StratifiedSums> sums, Map<Integer, long[]> deadFractionBins,
    List<PageFinding> findings, ReadTotals reads, Map<ChunkKey, ChunkSums> chunks)
    implements Serializable {

  /** A result without sums by chunk. */
  public RangeResult(Map<Integer, StratifiedSums> sums, Map<Integer, long[]> deadFractionBins,
      List<PageFinding> findings, ReadTotals reads) {
    this(sums, deadFractionBins, findings, reads, Map.of());
  }
}
