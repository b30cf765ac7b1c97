package io.pgbloat.testing;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.spark.TaskContext;

/**
 * Local files under the scheme {@code failfirst://}, for fault injection: inside a Spark task
 * whose partition is even, the first attempt dies when it opens a relation file (an Error,
 * which the tool's retry-and-report does not catch, as a lost executor would end it); the
 * retry reads normally. Registered in {@code META-INF/services/org.apache.hadoop.fs.FileSystem}
 * of the test classes.
 */
public final class FailingFirstAttemptFileSystem extends RawLocalFileSystem {
  public static final String SCHEME = "failfirst";
  /** First attempts killed in this JVM, so a test can see the fault really happened. */
  public static final java.util.concurrent.atomic.AtomicInteger INJECTED = new java.util.concurrent.atomic.AtomicInteger();

  /** What kills a first attempt. */
  public static final class InjectedTaskFailure extends Error {
    InjectedTaskFailure(String message) {
      super(message);
    }
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public URI getUri() {
    return URI.create(SCHEME + ":///");
  }

  @Override
  public void initialize(URI uri, Configuration conf) throws IOException {
    super.initialize(uri, conf);
  }

  @Override
  protected void checkPath(Path path) {
    // file paths of either scheme are ours
  }

  @Override
  public Path makeQualified(Path path) {
    return path.makeQualified(getUri(), getWorkingDirectory());
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    TaskContext task = TaskContext.get();
    if (task != null && task.attemptNumber() == 0 && task.partitionId() % 2 == 0 && f.toUri().getPath().contains("/base/")) {
      INJECTED.incrementAndGet();
      throw new InjectedTaskFailure("injected: first attempt of partition " + task.partitionId() + " dies");
    }
    return super.open(f, bufferSize);
  }
}
