package io.pgbloat.spark;

import io.pgbloat.sample.ScanRange;
import java.util.BitSet;
import java.util.List;
import org.apache.spark.Success$;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * Counts the blocks of the ranges whose tasks have finished, for a {@link ScanProgress}: one
 * task per range, its partition index the range's; a retried or speculative copy counts once.
 * Listens while one scan job runs (the driver runs them one at a time).
 */
final class RangeCompletions extends SparkListener {
  private final long[] blocks;
  private final long planned;
  private final ScanProgress progress;
  private final BitSet finished = new BitSet();
  private long done;

  RangeCompletions(List<ScanRange> ranges, ScanProgress progress) {
    this.blocks = ranges.stream().mapToLong(ScanRange::blocks).toArray();
    this.planned = java.util.Arrays.stream(blocks).sum();
    this.progress = progress;
  }

  @Override
  public synchronized void onTaskEnd(SparkListenerTaskEnd taskEnd) {
    int index = taskEnd.taskInfo().index();
    if (taskEnd.reason() != Success$.MODULE$ || index >= blocks.length || finished.get(index)) {
      return;
    }
    finished.set(index);
    done += blocks[index];
    progress.update(done, planned);
  }
}
