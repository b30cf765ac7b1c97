package io.pgbloat.scan;

import io.pgbloat.io.read.ReadTotals;
import io.pgbloat.page.IndexMetapage;
import io.pgbloat.stats.IndexPageSums;
import io.pgbloat.reuse.ChunkKey;
import io.pgbloat.reuse.ChunkSums;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * What one range of index blocks produced.
 *
 * @param sums per index, the exact sums of its pages read
 * @param metapages per btree, hash or GIN index whose sound block 0 was in the range, its
 *     metapage's figures
 * @param findings bad pages, at most {@link RangeScanner#FINDINGS_PER_RANGE}
 * @param reads what was read from disk
 * @param chunks per chunk read, of a scan asked to keep its sums by chunk, their sums
 */
public record IndexRangeResult(Map<Integer, IndexPageSums> sums, Map<Integer, IndexMetapage> metapages,
    List<PageFinding> findings, ReadTotals reads, Map<ChunkKey, ChunkSums> chunks) implements Serializable {

  /** A result without sums by chunk. */
  public IndexRangeResult(Map<Integer, IndexPageSums> sums, Map<Integer, IndexMetapage> metapages,
      List<PageFinding> findings, ReadTotals reads) {
    this(sums, metapages, findings, reads, Map.of());
  }
}
