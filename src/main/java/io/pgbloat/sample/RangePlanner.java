package io.pgbloat.sample;

import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.io.store.BackupIndex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Cuts the blocks to read, relation after relation, into contiguous ranges of about equal
 * block count, so that the cluster's cores get equal work whatever the mix of table sizes.
 */
public final class RangePlanner {
  private final long targetBlocks;

  /**
   * @param totalBlocks blocks in all slices together
   * @param parallelism cores to keep busy
   * @param rangesPerCore ranges per core, so a slow range does not hold up the end of the job
   *     (where there are other cores to take over the rest: with one core, one range, as each
   *     range pays its task's start)
   * @param minRangeBlocks no range smaller than this (per-task overhead dominates below it)
   * @param maxRangeBlocks no range larger than this (a retried task repeats at most this)
   */
  public RangePlanner(long totalBlocks, int parallelism, int rangesPerCore, long minRangeBlocks, long maxRangeBlocks) {
    long count = rangeCount(totalBlocks, parallelism, rangesPerCore, minRangeBlocks);
    long even = (totalBlocks + count - 1) / count;
    this.targetBlocks = Math.max(1, Math.min(maxRangeBlocks, even));
  }

  /**
   * How many ranges {@code blocks} of work make: {@code rangesPerCore} a core (one with one
   * core), none under {@code minRangeBlocks}, and beyond one wave of tasks whole waves (a last
   * wave of one small range is one more task start for little reading).
   */
  private static long rangeCount(long blocks, int parallelism, int rangesPerCore, long minRangeBlocks) {
    int cores = Math.max(1, parallelism);
    long wanted = cores == 1 ? 1 : (long) cores * rangesPerCore;
    long count = Math.max(1, Math.min(wanted, blocks / Math.max(1, minRangeBlocks)));
    if (count > cores) {
      count -= count % cores;
    }
    return count;
  }

  public long targetBlocks() {
    return targetBlocks;
  }

  /**
   * Where a file starts in a stream that can only be read in order (a compressed archive's), or
   * empty for a file read at random.
   */
  public interface StreamOrder {
    Optional<BackupIndex.StreamPosition> positionOf(String path);
  }

  /**
   * The slices of files that lie in streams, per stream in the order the stream holds them (a
   * relation's segments each in its place, as a tar holds them in the order of its directory), so
   * that one task reads each stream once, from start to end; the other slices, whose files are
   * read at random, into {@code random}.
   */
  public static List<List<RelationSlice>> inStreamOrder(List<RelationSlice> slices, StreamOrder order,
      List<RelationSlice> random) {
    record InStream(long offset, RelationSlice slice) {}
    Map<String, List<InStream>> streams = new TreeMap<>();
    for (RelationSlice slice : slices) {
      int segmentBlocks = slice.file().segmentBlocks();
      RelationSlice rest = slice;
      while (!rest.blocks().isEmpty()) {
        long segment = rest.blocks().runStart(0) / segmentBlocks;
        RelationSlice[] parts = rest.split(rest.blocks().countBefore((segment + 1) * segmentBlocks));
        Optional<BackupIndex.StreamPosition> at = order.positionOf(
            SegmentedFile.segmentPath(slice.file().relpath(), (int) segment));
        if (at.isPresent()) {
          streams.computeIfAbsent(at.get().stream(), s -> new ArrayList<>())
              .add(new InStream(at.get().offset(), parts[0]));
        } else {
          random.add(parts[0]);
        }
        rest = parts[1];
      }
    }
    List<List<RelationSlice>> ordered = new ArrayList<>();
    for (List<InStream> inStream : streams.values()) {
      inStream.sort(Comparator.comparingLong(InStream::offset));
      ordered.add(inStream.stream().map(InStream::slice).toList());
    }
    return ordered;
  }

  /**
   * The streams' slices (each list one stream, in its order: {@link #inStreamOrder}) packed into
   * {@linkplain #rangeCount as many ranges} as the work makes, at most one a stream: each stream
   * whole, the largest first into the range with the least work so far. A stream is decoded from
   * its start up to its last block wanted, whatever part of it a task counts, so its work is that
   * decoded length, and a stream cut in two would be decoded twice. The task's I/O thread decodes
   * while the task counts, so even one archive keeps two cores busy.
   */
  public static List<List<RelationSlice>> packStreams(List<List<RelationSlice>> streams, int parallelism,
      int rangesPerCore, long minRangeBlocks) {
    long[] work = streams.stream().mapToLong(RangePlanner::decodedBlocks).toArray();
    long total = Arrays.stream(work).sum();
    int count = (int) Math.min(streams.size(), rangeCount(total, parallelism, rangesPerCore, minRangeBlocks));
    List<Integer> largestFirst = new ArrayList<>();
    for (int i = 0; i < streams.size(); i++) {
      largestFirst.add(i);
    }
    largestFirst.sort(Comparator.comparingLong((Integer i) -> work[i]).reversed());
    List<List<Integer>> ranges = new ArrayList<>();
    long[] load = new long[count];
    for (int i = 0; i < count; i++) {
      ranges.add(new ArrayList<>());
    }
    for (int stream : largestFirst) {
      int least = 0;
      for (int i = 1; i < count; i++) {
        least = load[i] < load[least] ? i : least;
      }
      ranges.get(least).add(stream);
      load[least] += work[stream];
    }
    List<List<RelationSlice>> packed = new ArrayList<>();
    for (List<Integer> range : ranges) {
      packed.add(range.stream().sorted().flatMap(i -> streams.get(i).stream()).toList());
    }
    return packed;
  }

  /**
   * The blocks decoded to read a stream's slices: each slice (a segment's, as
   * {@link #inStreamOrder} splits them) from its segment's start to its last block.
   */
  private static long decodedBlocks(List<RelationSlice> stream) {
    long blocks = 0;
    for (RelationSlice slice : stream) {
      BlockList b = slice.blocks();
      if (b.runCount() > 0) {
        long last = b.runStart(b.runCount() - 1) + b.runLength(b.runCount() - 1);
        blocks += last - b.runStart(0) / slice.file().segmentBlocks() * slice.file().segmentBlocks();
      }
    }
    return blocks;
  }

  /** The ranges covering every block of {@code slices} once, in order. */
  public List<ScanRange> cut(List<RelationSlice> slices) {
    List<ScanRange> ranges = new ArrayList<>();
    List<RelationSlice> current = new ArrayList<>();
    long inCurrent = 0;
    for (RelationSlice slice : slices) {
      RelationSlice rest = slice;
      while (!rest.blocks().isEmpty()) {
        long room = targetBlocks - inCurrent;
        RelationSlice[] parts = rest.split(room);
        current.add(parts[0]);
        inCurrent += parts[0].blocks().size();
        rest = parts[1];
        if (inCurrent >= targetBlocks) {
          ranges.add(new ScanRange(ranges.size(), current));
          current = new ArrayList<>();
          inCurrent = 0;
        }
      }
    }
    if (!current.isEmpty()) {
      ranges.add(new ScanRange(ranges.size(), current));
    }
    return ranges;
  }
}
