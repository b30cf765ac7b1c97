package io.pgbloat.io.read;

import io.pgbloat.page.PageHeader;
import java.io.Serializable;

/**
 * What a scan read: plain data, from a task's {@link ReadCounters} to the driver's metrics.
 *
 * @param blocks blocks read and handed out (the sample's)
 * @param gapBlocks blocks read only to join two reads into one, and dropped
 * @param reads read requests issued
 */
public record ReadTotals(long blocks, long gapBlocks, long reads) implements Serializable {
  public static final ReadTotals NONE = new ReadTotals(0, 0, 0);

  public ReadTotals plus(ReadTotals other) {
    return new ReadTotals(blocks + other.blocks, gapBlocks + other.gapBlocks, reads + other.reads);
  }

  /** Bytes read from the files, the gaps' included. */
  public long bytes() {
    return (blocks + gapBlocks) * PageHeader.BLCKSZ;
  }
}
