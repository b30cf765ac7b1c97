package io.pgbloat.io.read;

import java.io.Serializable;

/**
 * How a task reads its blocks.
 *
 * @param concurrency K: reads kept in flight; 1 reads synchronously in the task's own thread
 * @param combineLimit B: adjacent blocks merged into one read, at most this many
 * @param directIo read local files with O_DIRECT: no page cache, no kernel readahead
 * @param inFlightBlocks the most blocks a stream reads ahead of its consumer (its buffers), whatever K
 * @param gapLimit the most unasked blocks read through to join two reads into one (within B);
 *     0 reads only the blocks asked for
 */
public record IoSettings(int concurrency, int combineLimit, boolean directIo, int inFlightBlocks, int gapLimit)
    implements Serializable {
  /**
   * 1024 blocks (8 MB) per stream: 16 reads of 64 blocks, so that a full scan keeps K reads of B
   * blocks at the device rather than a few (docs/speed.md, "How the I/O path got there"). A
   * sample's single-block reads are bounded by K long before this.
   */
  public static final int DEFAULT_IN_FLIGHT_BLOCKS = 1024;
  /** At most 64 MB in flight per stream. */
  public static final int MAX_IN_FLIGHT_BLOCKS = 8192;

  public IoSettings(int concurrency, int combineLimit, boolean directIo) {
    this(concurrency, combineLimit, directIo, DEFAULT_IN_FLIGHT_BLOCKS, DEFAULT_GAP_LIMIT);
  }

  /** With {@code concurrency} reads in flight. */
  public IoSettings withConcurrency(int concurrency) {
    return new IoSettings(concurrency, combineLimit, directIo, inFlightBlocks, gapLimit);
  }

  /** With {@code gapLimit} unasked blocks read through at most. */
  public IoSettings withGapLimit(int gapLimit) {
    return new IoSettings(concurrency, combineLimit, directIo, inFlightBlocks, gapLimit);
  }

  /** With at most {@code inFlightBlocks} blocks in flight per stream. */
  public IoSettings withInFlightBlocks(int inFlightBlocks) {
    return new IoSettings(concurrency, combineLimit, directIo, inFlightBlocks, gapLimit);
  }

  /**
   * K = 16: where concurrent 8 kB readers stop gaining on the disks measured (fio, in
   * docs/speed.md); PostgreSQL's read stream keeps 16 too.
   */
  public static final int DEFAULT_CONCURRENCY = 16;
  /**
   * B = 64 (512 kB; PostgreSQL's io_combine_limit default is 128 kB): the fastest cold full scan
   * with O_DIRECT of the limits measured (docs/speed.md). A sample's rare adjacent blocks merge
   * as before; buffers are sized by the largest read a stream makes.
   */
  public static final int DEFAULT_COMBINE_LIMIT = 64;
  /**
   * B = 256 (2 MB) where the files are in an object store: each read is a request there, whose
   * cost (a round trip, the server's work) outweighs the transfer of a few more megabytes; a full
   * scan then reads faster than the connector reading the objects whole (docs/remote-stores.md).
   */
  public static final int OBJECT_STORE_COMBINE_LIMIT = 256;
  /** Upper bounds, so a typo cannot ask for gigabytes of buffers: 256 × 256 × 8 kB = 512 MB. */
  public static final int MAX_CONCURRENCY = 256;
  public static final int MAX_COMBINE_LIMIT = 256;
  /**
   * G = 4: a few more blocks in a read cost the disk less than one more read, and much wider gaps
   * read too much more (docs/speed.md, dense samples against the gap limit). A default sample
   * of a large table has few gaps this short.
   */
  public static final int DEFAULT_GAP_LIMIT = 4;
  /**
   * G = 64 (512 kB) where the files are in an object store: there a request, not a byte, is what
   * costs (a round trip; the server's and the client's work), and a default sample of a large
   * table has many gaps this short, each one request fewer (docs/remote-stores.md).
   */
  public static final int OBJECT_STORE_GAP_LIMIT = 64;
  /** A gap wider than B could never join two reads of at most B. */
  public static final int MAX_GAP_LIMIT = MAX_COMBINE_LIMIT;

  public IoSettings {
    if (concurrency < 1 || concurrency > MAX_CONCURRENCY) {
      throw new IllegalArgumentException("io concurrency must be 1 to " + MAX_CONCURRENCY + ", not " + concurrency);
    }
    if (combineLimit < 1 || combineLimit > MAX_COMBINE_LIMIT) {
      throw new IllegalArgumentException("io combine limit must be 1 to " + MAX_COMBINE_LIMIT + ", not " + combineLimit);
    }
    if (gapLimit < 0 || gapLimit > MAX_GAP_LIMIT) {
      throw new IllegalArgumentException("io gap limit must be 0 to " + MAX_GAP_LIMIT + ", not " + gapLimit);
    }
    if (inFlightBlocks < 1 || inFlightBlocks > MAX_IN_FLIGHT_BLOCKS) {
      throw new IllegalArgumentException("blocks in flight must be 1 to " + MAX_IN_FLIGHT_BLOCKS + ", not "
          + inFlightBlocks);
    }
  }

  public static IoSettings defaults() {
    return new IoSettings(DEFAULT_CONCURRENCY, DEFAULT_COMBINE_LIMIT, false);
  }
}
