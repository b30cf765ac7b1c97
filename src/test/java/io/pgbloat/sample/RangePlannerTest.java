package io.pgbloat.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.page.TableColumns;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RangePlannerTest {

  private static List<RelationSlice> relations(long... sizes) {
    List<RelationSlice> slices = new ArrayList<>();
    for (int i = 0; i < sizes.length; i++) {
      slices.add(new RelationSlice(i, new SegmentedFile("base/1/" + i, 131072, sizes[i]), BlockList.range(0, sizes[i]), null, false, TableColumns.AS_STORED));
    }
    return slices;
  }

  /** Every block of every relation lands in exactly one range, in order. */
  @Test
  void rangesCoverEveryBlockOnceInOrder() {
    Random random = new Random(7);
    long[] sizes = new long[300];
    for (int i = 0; i < sizes.length; i++) {
      sizes[i] = random.nextInt(10) == 0 ? random.nextInt(200_000) : random.nextInt(40);
    }
    List<RelationSlice> slices = relations(sizes);
    long total = java.util.Arrays.stream(sizes).sum();
    RangePlanner planner = new RangePlanner(total, 8, 4, 1024, 131072);
    List<ScanRange> ranges = planner.cut(slices);
    long[] next = new long[sizes.length];
    for (ScanRange range : ranges) {
      assertTrue(range.blocks() <= planner.targetBlocks());
      for (RelationSlice s : range.slices()) {
        for (int r = 0; r < s.blocks().runCount(); r++) {
          assertEquals(next[s.relation()], s.blocks().runStart(r));
          next[s.relation()] += s.blocks().runLength(r);
        }
      }
    }
    assertEquals(java.util.Arrays.toString(sizes), java.util.Arrays.toString(next));
    // all ranges but the last are full: the work is balanced
    for (int i = 0; i < ranges.size() - 1; i++) {
      assertEquals(planner.targetBlocks(), ranges.get(i).blocks());
    }
  }

  @Test
  void smallTablesShareARangeAndAHugeOneSpreads() {
    List<ScanRange> small = new RangePlanner(100, 2, 4, 1024, 131072).cut(relations(10, 20, 30, 40));
    assertEquals(1, small.size());
    assertEquals(4, small.get(0).slices().size());
    List<ScanRange> huge = new RangePlanner(1_000_000, 2, 4, 1024, 131072).cut(relations(1_000_000));
    assertEquals(8, huge.size());
    // one core: nobody to hand a slow range's rest to, so one range (up to the largest)
    assertEquals(1, new RangePlanner(20_000, 1, 4, 1024, 131072).cut(relations(20_000)).size());
    assertEquals(8, new RangePlanner(1_000_000, 1, 4, 1024, 131072).cut(relations(1_000_000)).size());
    // a small sample on two cores: two ranges of 1500 (one wave), not 1024 + 1024 + 952 (two)
    List<ScanRange> sample = new RangePlanner(3000, 2, 4, 1024, 131072).cut(relations(3000));
    assertEquals(List.of(1500L, 1500L), sample.stream().map(ScanRange::blocks).toList());
  }

  /** Streams of one relation each, its blocks in order: a stream is decoded from its start. */
  private static List<List<RelationSlice>> streams(long... sizes) {
    return relations(sizes).stream().map(List::of).toList();
  }

  /** Which streams (relations) a range reads, and how many blocks of each, in its order. */
  private static List<Long> blocksPerStream(List<RelationSlice> range, int relations) {
    long[] blocks = new long[relations];
    for (RelationSlice s : range) {
      blocks[s.relation()] += s.blocks().size();
    }
    return java.util.Arrays.stream(blocks).boxed().toList();
  }

  @Test
  void streamsArePackedWholeTheLargestFirst() {
    // a pgBackRest backup's files, each compressed alone, in no order of size: none is cut (a
    // cut stream is decoded again up to the cut), the largest go first to the emptiest range
    long[] sizes = {3, 16000, 131072, 40, 122000, 131072};
    List<List<RelationSlice>> packed = RangePlanner.packStreams(streams(sizes), 2, 1, 1024);
    assertEquals(2, packed.size());
    assertEquals(List.of(0L, 0L, 131072L, 0L, 122000L, 0L), blocksPerStream(packed.get(0), 6));
    assertEquals(List.of(3L, 16000L, 0L, 40L, 0L, 131072L), blocksPerStream(packed.get(1), 6));
    // each range reads its streams in the order of the streams
    assertEquals(List.of(0, 1, 3, 5), packed.get(1).stream().map(RelationSlice::relation).toList());
    // with four ranges a core wanted, a range a stream here
    List<List<RelationSlice>> finer = RangePlanner.packStreams(streams(sizes), 2, 4, 1024);
    assertEquals(6, finer.size());
    assertEquals(List.of(1L, 1L, 1L, 1L, 1L, 1L), finer.stream().map(r -> (long) r.size()).toList());
    // one archive is one range, its slices in the stream's order whatever their relations
    List<RelationSlice> archive = relations(50_000, 70_000, 30_000);
    List<List<RelationSlice>> one = RangePlanner.packStreams(
        List.of(List.of(archive.get(2), archive.get(0), archive.get(1))), 2, 4, 1024);
    assertEquals(1, one.size());
    assertEquals(List.of(2, 0, 1), one.get(0).stream().map(RelationSlice::relation).toList());
    // a small backup is one range: the tasks' starts would cost more than they spread
    assertEquals(1, RangePlanner.packStreams(streams(300, 200, 100), 2, 4, 1024).size());
    // no streams (a data directory, an uncompressed backup): no range
    assertEquals(0, RangePlanner.packStreams(List.of(), 2, 4, 1024).size());
  }

  /**
   * A sample of compressed files is weighed by what decoding it takes, each file up to its last
   * sampled block, not by the blocks it counts: a few blocks near the end of each of eight large
   * files are eight ranges' work, not one.
   */
  @Test
  void aSampledStreamWeighsWhatItDecodes() {
    List<List<RelationSlice>> streams = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      SegmentedFile file = new SegmentedFile("base/1/" + i, 131072, 131072);
      streams.add(List.of(new RelationSlice(i, file, BlockList.of(10, 130_000 + i), null, false, TableColumns.AS_STORED)));
    }
    List<List<RelationSlice>> packed = RangePlanner.packStreams(streams, 2, 4, 1024);
    assertEquals(8, packed.size());
  }

  @Test
  void blockListSplitsAndMergesRuns() {
    BlockList list = BlockList.of(1, 2, 3, 7, 8, 20);
    assertEquals(3, list.runCount());
    BlockList[] parts = list.split(4);
    assertEquals(BlockList.of(1, 2, 3, 7), parts[0]);
    assertEquals(BlockList.of(8, 20), parts[1]);
    assertEquals(6, list.size());
  }
}
