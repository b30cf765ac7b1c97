package io.pgbloat.io.read;

import io.pgbloat.io.store.FileStore;
import io.pgbloat.page.PageHeader;
import java.io.IOException;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A relation fork stored as segment files {@code relpath}, {@code relpath.1},
 * {@code relpath.2}, ... of {@code segmentBlocks} blocks each, addressed as one block space
 * ({@code src/backend/storage/smgr/md.c}). Plain data, so it travels to executors.
 *
 * @param relpath path of the first segment, relative to the data directory
 * @param segmentBlocks RELSEG_SIZE: blocks per full segment (131072 by default)
 * @param blocks the fork's length in blocks, as mdnblocks counts it
 * @param partialBlocks trailing partial blocks (a segment whose size is not a multiple of
 *     BLCKSZ) that no reader sees: damage, reported as bad pages of the relation
 */
public record SegmentedFile(String relpath, int segmentBlocks, long blocks, int partialBlocks)
    implements Serializable {

  /** A fork of whole blocks. */
  public SegmentedFile(String relpath, int segmentBlocks, long blocks) {
    this(relpath, segmentBlocks, blocks, 0);
  }

  /** What measuring the segments found: the file and anything wrong with its segments. */
  public record Measured(SegmentedFile file, List<String> problems) {}

  /**
   * Measures the fork as mdnblocks does: segments are counted until the first one missing or
   * shorter than a full segment. Anything PostgreSQL would not see, or would fail on, is a
   * problem: a missing first segment, a trailing partial block, segments after a short or a
   * missing one.
   */
  public static Measured measure(FileStore files, String relpath, int segmentBlocks) throws IOException {
    List<String> problems = new ArrayList<>();
    long segmentBytes = (long) segmentBlocks * PageHeader.BLCKSZ;
    long blocks = 0;
    int partialBlocks = 0;
    for (int segment = 0; ; segment++) {
      String path = segmentPath(relpath, segment);
      long length = files.length(path);
      if (length < 0) {
        String next = segmentPath(relpath, segment + 1);
        if (segment == 0) {
          problems.add("relation file " + path + " is missing (or not a regular file)");
        } else if (files.length(next) >= 0) {
          problems.add("segment " + path + " is missing but " + next + " follows: only the first " + blocks
              + " blocks are read, as PostgreSQL would see them");
        }
        break;
      }
      if (length % PageHeader.BLCKSZ != 0) {
        problems.add("segment " + path + " is " + length + " bytes, not a multiple of "
            + PageHeader.BLCKSZ + ": its last " + (length % PageHeader.BLCKSZ) + " bytes are not read"
            + " (counted as a bad page)");
        partialBlocks++;
      }
      if (length > segmentBytes) {
        problems.add("segment " + path + " is " + length + " bytes, larger than a segment ("
            + segmentBytes + "): only the first " + segmentBlocks + " blocks are read");
        length = segmentBytes;
      }
      blocks += length / PageHeader.BLCKSZ;
      if (length < segmentBytes) {
        String next = segmentPath(relpath, segment + 1);
        if (files.length(next) >= 0) {
          problems.add("segment " + next + " follows the short segment " + path
              + "; PostgreSQL ignores it, and so does this report");
        }
        break;
      }
    }
    return new Measured(new SegmentedFile(relpath, segmentBlocks, blocks, partialBlocks), problems);
  }

  /**
   * Releases every segment of the fork that {@code files} holds open ({@link FileStore#release}).
   * A close that fails is ignored: it loses nothing already read, and a later open reports a
   * real problem.
   */
  public void release(FileStore files) {
    long segments = blocks / segmentBlocks + 1;
    for (int segment = 0; segment < segments; segment++) {
      try {
        files.release(segmentPath(relpath, segment));
      } catch (IOException e) {
        // see above
      }
    }
  }

  /**
   * Tells {@code files} each segment's length in whole blocks, as measured ({@link FileStore#knowLength}):
   * a task then opens them with no question about their length.
   */
  public void knowLengths(FileStore files) {
    for (long first = 0, segment = 0; first < blocks; first += segmentBlocks, segment++) {
      files.knowLength(segmentPath(relpath, (int) segment), Math.min(segmentBlocks, blocks - first) * PageHeader.BLCKSZ);
    }
  }

  /** The fork's length in bytes, as the blocks it holds. */
  public long bytes() {
    return blocks * PageHeader.BLCKSZ;
  }

  /** Path of segment {@code segment}: the first has no suffix. */
  public static String segmentPath(String relpath, int segment) {
    return segment == 0 ? relpath : relpath + "." + segment;
  }

  /**
   * Reads blocks {@code first .. first + count - 1} into {@code buffer}, one block after
   * another, crossing segment boundaries as needed.
   */
  public void readBlocks(FileStore files, long first, int count, byte[] buffer) throws IOException {
    readBlocks(files, first, count, ByteBuffer.wrap(buffer), 0);
  }

  /**
   * As {@link #readBlocks(FileStore, long, int, byte[])}, into {@code buffer} from byte
   * {@code offset}: with no copy when the buffer is one of {@link FileStore#allocate}'s.
   */
  public void readBlocks(FileStore files, long first, int count, ByteBuffer buffer, int offset) throws IOException {
    if (first < 0 || count < 0 || first + count > blocks) {
      throw new IllegalArgumentException("blocks " + first + ".." + (first + count - 1)
          + " outside 0.." + (blocks - 1) + " of " + relpath);
    }
    int done = 0;
    while (done < count) {
      long block = first + done;
      int segment = (int) (block / segmentBlocks);
      long inSegment = block % segmentBlocks;
      int run = (int) Math.min(count - done, segmentBlocks - inSegment);
      files.readFully(segmentPath(relpath, segment), inSegment * PageHeader.BLCKSZ,
          buffer.slice(offset + done * PageHeader.BLCKSZ, run * PageHeader.BLCKSZ));
      done += run;
    }
  }

  /**
   * Blocks a whole-file read asks for at once ({@link #readInOrder}): 1 MB, so that a catalog or
   * a visibility map on a remote store costs a request per megabyte, not one per block.
   */
  public static final int IN_ORDER_READ_BLOCKS = 128;

  /** What {@link #readInOrder} does with each block. */
  @FunctionalInterface
  public interface BlockVisitor {
    /** {@code page} holds block {@code block}; the next block overwrites it. */
    void visit(long block, byte[] page) throws IOException;
  }

  /**
   * Reads blocks {@code 0 .. count - 1} in order, {@link #IN_ORDER_READ_BLOCKS} a read, and hands
   * each to {@code visitor}.
   */
  public void readInOrder(FileStore files, long count, BlockVisitor visitor) throws IOException {
    byte[] chunk = new byte[(int) Math.min(count, IN_ORDER_READ_BLOCKS) * PageHeader.BLCKSZ];
    byte[] page = new byte[PageHeader.BLCKSZ];
    for (long first = 0; first < count; first += IN_ORDER_READ_BLOCKS) {
      int n = (int) Math.min(count - first, IN_ORDER_READ_BLOCKS);
      readBlocks(files, first, n, ByteBuffer.wrap(chunk), 0);
      for (int i = 0; i < n; i++) {
        System.arraycopy(chunk, i * PageHeader.BLCKSZ, page, 0, PageHeader.BLCKSZ);
        visitor.visit(first + i, page);
      }
    }
  }
}
