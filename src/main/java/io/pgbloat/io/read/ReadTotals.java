package io.pgbloat.io.read;

import io.pgbloat.io.store.StoreRequests;
import io.pgbloat.page.PageHeader;
import java.io.Serializable;

/**
 * What a scan read: plain data, from a task's {@link ReadCounters} to the driver's metrics.
 *
 * @param blocks blocks read and handed out (the sample's)
 * @param gapBlocks blocks read only to join two reads into one, and dropped
 * @param reads read requests issued
 * @param requests what they and the files' opening asked of a remote store
 */
public record ReadTotals(long blocks, long gapBlocks, long reads, StoreRequests requests) implements Serializable {
  public static final ReadTotals NONE = new ReadTotals(0, 0, 0);

  /** Of local files: no store's requests. */
  public ReadTotals(long blocks, long gapBlocks, long reads) {
    this(blocks, gapBlocks, reads, StoreRequests.NONE);
  }

  public ReadTotals plus(ReadTotals other) {
    return new ReadTotals(blocks + other.blocks, gapBlocks + other.gapBlocks, reads + other.reads,
        requests.plus(other.requests));
  }

  /** Bytes read from the files, the gaps' included. */
  public long bytes() {
    return (blocks + gapBlocks) * PageHeader.BLCKSZ;
  }
}
