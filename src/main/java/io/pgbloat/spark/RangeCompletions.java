package io.pgbloat.spark;

import io.pgbloat.sample.ScanRange;
import java.util.BitSet;
import java.util.List;
import org.apache.spark.Success$;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * Counts the blocks of the ranges whose tasks have finished, for a {@link ScanProgress}: one
 * task per range, its partition index the range's; a retried or speculative copy counts once.
 * Only the stages of jobs in {@code jobGroup} count, so other jobs of a shared session (or a
 * late event of an earlier scan) do not.
 */
final class RangeCompletions extends SparkListener {
  private final String jobGroup;
  private final java.util.Set<Integer> stages = new java.util.HashSet<>();
  private final long[] blocks;
  private final long planned;
  private final ScanProgress progress;
  private final BitSet finished = new BitSet();
  private long done;
  /** SparkContext.SPARK_JOB_GROUP_ID: the local property a job group travels in. */
  static final String JOB_GROUP_PROPERTY = "spark.jobGroup.id";

  RangeCompletions(String jobGroup, List<ScanRange> ranges, ScanProgress progress) {
    this.jobGroup = jobGroup;
    this.blocks = ranges.stream().mapToLong(ScanRange::blocks).toArray();
    this.planned = java.util.Arrays.stream(blocks).sum();
    this.progress = progress;
  }

  @Override
  public synchronized void onJobStart(SparkListenerJobStart jobStart) {
    if (jobStart.properties() != null && jobGroup.equals(jobStart.properties().getProperty(JOB_GROUP_PROPERTY))) {
      for (Object stage : scala.jdk.javaapi.CollectionConverters.asJava(jobStart.stageIds())) {
        stages.add((Integer) stage);
      }
    }
  }

  @Override
  public synchronized void onTaskEnd(SparkListenerTaskEnd taskEnd) {
    int index = taskEnd.taskInfo().index();
    if (!stages.contains(taskEnd.stageId()) || taskEnd.reason() != Success$.MODULE$ || index >= blocks.length
        || finished.get(index)) {
      return;
    }
    finished.set(index);
    done += blocks[index];
    progress.update(done, planned);
  }
}
