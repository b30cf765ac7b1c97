package io.pgbloat.sample;

import java.util.ArrayList;
import java.util.List;

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
    int cores = Math.max(1, parallelism);
    long wanted = cores == 1 ? 1 : (long) cores * rangesPerCore;
    // none under minRangeBlocks; beyond one wave of tasks, whole waves (a last wave of one
    // small range is one more task start for little reading)
    long count = Math.max(1, Math.min(wanted, totalBlocks / Math.max(1, minRangeBlocks)));
    if (count > cores) {
      count -= count % cores;
    }
    long even = (totalBlocks + count - 1) / count;
    this.targetBlocks = Math.max(1, Math.min(maxRangeBlocks, even));
  }

  public long targetBlocks() {
    return targetBlocks;
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
