package io.pgbloat.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerApplicationEnd;
import org.apache.spark.scheduler.SparkListenerApplicationStart;
import org.apache.spark.scheduler.SparkListenerExecutorAdded;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * A driver-side listener (register it with {@code spark.extraListeners}) that records which
 * executors ran tasks, as {@code <executor id>@<host>}: lets a test see that the work really
 * went to a cluster's executors and not to the driver. Also keeps a timeline of the
 * application (executors added, jobs), for failure messages.
 */
public final class TaskExecutorRecorder extends SparkListener {
  private static final Set<String> EXECUTORS = new TreeSet<>();
  private static final List<String> TIMELINE = new ArrayList<>();
  private static long origin = System.currentTimeMillis();

  /** Forgets what was recorded; the timeline counts from now. */
  public static synchronized void reset() {
    EXECUTORS.clear();
    TIMELINE.clear();
    origin = System.currentTimeMillis();
  }

  /** Executors that finished a task since the last {@link #reset()}. */
  public static synchronized Set<String> executors() {
    return new TreeSet<>(EXECUTORS);
  }

  /** "+&lt;ms&gt; &lt;event&gt;" lines since the last {@link #reset()}. */
  public static synchronized List<String> timeline() {
    return new ArrayList<>(TIMELINE);
  }

  private static synchronized void event(long time, String what) {
    TIMELINE.add("+" + (time - origin) + " ms " + what);
  }

  @Override
  public void onApplicationStart(SparkListenerApplicationStart start) {
    event(start.time(), "application " + start.appId().getOrElse(() -> "?") + " started");
  }

  @Override
  public void onExecutorAdded(SparkListenerExecutorAdded added) {
    event(added.time(), "executor " + added.executorId() + " added on " + added.executorInfo().executorHost());
  }

  @Override
  public void onJobStart(SparkListenerJobStart start) {
    event(start.time(), "job " + start.jobId() + " started");
  }

  @Override
  public void onJobEnd(SparkListenerJobEnd end) {
    event(end.time(), "job " + end.jobId() + " ended");
  }

  @Override
  public void onApplicationEnd(SparkListenerApplicationEnd end) {
    event(end.time(), "application ended");
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
    synchronized (TaskExecutorRecorder.class) {
      EXECUTORS.add(taskEnd.taskInfo().executorId() + "@" + taskEnd.taskInfo().host());
    }
    event(taskEnd.taskInfo().finishTime(), "task " + taskEnd.taskInfo().taskId() + " ended on executor "
        + taskEnd.taskInfo().executorId());
  }
}
