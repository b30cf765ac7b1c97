package io.pgbloat.testing;

import io.pgbloat.io.store.StoreSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A run of the command line on an {@link S3Server}'s buckets through S3A, configured as users
 * configure Spark ({@code --conf spark.hadoop.fs.s3a.*}), and the requests the server was sent
 * while it ran: only the tool's, when nothing else talks to {@link S3Server#endpoint()} meanwhile.
 *
 * @param run what the tool printed
 * @param requests what it asked of the store
 */
public record S3ToolRun(ToolRun run, RequestCounts requests) {

  /** Runs {@code tool}, given the arguments that point S3A at {@code s3}, and counts its requests. */
  public static S3ToolRun of(S3Server s3, Function<List<String>, ToolRun> tool) {
    List<String> conf = confArgs(s3.hadoopSettings());
    RequestCounts before = s3.requests();
    ToolRun run = tool.apply(conf);
    return new S3ToolRun(run, s3.requests().since(before));
  }

  /** Whether the run reached the store (through the counted endpoint) and asked it only to read. */
  public boolean readOnly() {
    return requests.total() > 0 && requests.onlyReads();
  }

  /** For a person to read: the requests by kind, and the run's wall time. */
  public String cost() {
    return requests + " in " + run.elapsed().toMillis() + " ms";
  }

  /** Hadoop settings as the command line takes them: {@code --conf spark.hadoop.KEY=VALUE} each. */
  public static List<String> confArgs(Map<String, String> hadoop) {
    List<String> args = new ArrayList<>();
    hadoop.forEach((key, value) -> args.addAll(List.of("--conf", StoreSettings.SPARK_HADOOP_PREFIX + key + "=" + value)));
    return args;
  }
}
