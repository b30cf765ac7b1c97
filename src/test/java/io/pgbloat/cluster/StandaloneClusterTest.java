package io.pgbloat.cluster;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.testing.SampleData;
import io.pgbloat.spark.RangeSizing;
import io.pgbloat.testing.Requirement;
import io.pgbloat.testing.SparkStandaloneCluster;
import io.pgbloat.testing.TaskExecutorRecorder;
import io.pgbloat.testing.ToolRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tool on a real multi-JVM Spark standalone cluster: a Master and two Workers, each a
 * separate {@code java} process on 127.0.0.1, whose executors are JVMs of their own. The CSV
 * must equal a {@code local[2]} run's, and the scan must really have run in those executors.
 */
class StandaloneClusterTest {
  private static final Pattern EXECUTORS_METRIC = Pattern.compile("\"executors\":\\s*(\\d+)");
  private static final Pattern RANGES_METRIC = Pattern.compile("\"ranges\":\\s*(\\d+)");
  /** Ranges of two blocks at least: the sample's blocks cut into as many tasks as 2 cores take (8). */
  private static final Map<String, String> SMALL_RANGES = Map.of(RangeSizing.MIN_RANGE_BLOCKS_PROPERTY, "2");

  private static final String[] FULL = {"--full-scan"};
  private static final String[] SAMPLED = {"--sample-blocks", "10", "--seed", "3"};

  @TempDir static Path temp;
  private static SparkStandaloneCluster cluster;
  private static ToolRun localFull;
  private static ToolRun localSampled;

  /** Launches the cluster, makes the local[2] reports while its JVMs start, then waits for it. */
  @BeforeAll
  static void startClusterAndRunLocally() {
    Requirement.require(Files.isExecutable(SparkStandaloneCluster.javaExecutable()) ? ""
        : "no java executable at " + SparkStandaloneCluster.javaExecutable());
    cluster = SparkStandaloneCluster.launch(temp.resolve("cluster"), 2);
    localFull = withSparkProperties(SMALL_RANGES, () -> ToolRun.of(args("local[2]", FULL)));
    localSampled = withSparkProperties(SMALL_RANGES, () -> ToolRun.of(args("local[2]", SAMPLED)));
    cluster.awaitWorkers(Duration.ofSeconds(60));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void fullScanOnClusterEqualsLocal() {
    assertSameReportOnCluster("full", localFull, FULL);
  }

  @Test
  void sampledRunOnClusterEqualsLocal() {
    assertTrue(localSampled.partlyReadRelations() > 0,
        "some relation was sampled, not read whole:\n" + localSampled.out());
    assertSameReportOnCluster("sampled", localSampled, SAMPLED);
  }

  private static void assertSameReportOnCluster(String name, ToolRun local, String... sampling) {
    // the tool's SparkSession.builder().getOrCreate() would reuse an open session and never reach the cluster
    assertTrue(SparkSession.getDefaultSession().isEmpty() && SparkSession.getActiveSession().isEmpty(),
        "a SparkSession left open by an earlier test; the tool would reuse it instead of the cluster");
    Path metrics = temp.resolve("metrics-" + name + ".json");
    Set<String> appsBefore = appDirs();
    List<String> withMetrics = new ArrayList<>(List.of(args(cluster.masterUrl(), sampling)));
    withMetrics.addAll(List.of("--metrics-out", metrics.toString()));
    TaskExecutorRecorder.reset();
    ToolRun remote = withSparkProperties(clusterProperties(), () -> ToolRun.of(withMetrics.toArray(String[]::new)));
    Set<String> ranTasks = TaskExecutorRecorder.executors();

    Set<String> newApps = appDirs();
    newApps.removeAll(appsBefore);
    Map<Path, String> executorLogs = executorStderrs(newApps);
    String context = "\ncluster run: " + remote.describe() + "\ntimeline: " + TaskExecutorRecorder.timeline()
        + "\nexecutor logs: " + executorLogs.keySet()
        + "\n" + cluster.logTails();
    assertAll(
        () -> assertEquals(0, local.status(), "local: " + local.describe()),
        () -> assertEquals(0, remote.status(), "cluster: " + remote.describe() + context),
        () -> assertEquals("", remote.err(), "cluster run's stderr" + context),
        () -> assertTrue(local.out().lines().count() > 1, "local report has rows:\n" + local.out()),
        () -> assertEquals(local.out(), remote.out(), "CSV on the cluster differs from local[2]" + context),
        // one application, two executors (one per Worker), each a JVM the Worker launched
        () -> assertEquals(1, newApps.stream().map(a -> a.substring(a.indexOf('/') + 1)).distinct().count(),
            "new applications in the workers' work dirs: " + newApps + context),
        () -> assertEquals(2, executorLogs.size(), "executor stderr files: " + executorLogs.keySet() + context),
        () -> assertTrue(executorLogs.values().stream()
                .allMatch(log -> log.contains("org.apache.spark.executor.CoarseGrainedExecutorBackend")),
            "every executor was launched as a CoarseGrainedExecutorBackend JVM" + context),
        () -> assertEquals(2, executorLogs.keySet().stream().map(p -> p.getParent().getParent().getParent()).distinct()
            .count(), "one executor on each Worker" + context),
        // the tasks ran in those executors, not in the driver
        () -> assertFalse(ranTasks.isEmpty(), "tasks were recorded" + context),
        () -> assertTrue(ranTasks.stream().noneMatch(e -> e.startsWith("driver@")),
            "tasks ran on executors only: " + ranTasks + context),
        () -> assertEquals("2", metric(EXECUTORS_METRIC, metrics), "executors in --metrics-out" + context),
        () -> assertEquals("8", metric(RANGES_METRIC, metrics), "ranges (tasks) in --metrics-out" + context));
  }

  private static String[] args(String master, String... sampling) {
    List<String> args = new ArrayList<>(List.of("analyze", "--data-dir", SampleData.dataDir().toString(),
        "--format", "csv", "--master", master));
    args.addAll(List.of(sampling));
    return args.toArray(String[]::new);
  }

  /**
   * What the tool's own SparkSession.builder() picks up from spark.* system properties: the
   * executors' classpath and flags, a listener that records where tasks ran, and both
   * executors registered (2 cores, all of them) before the first job is submitted.
   */
  private static Map<String, String> clusterProperties() {
    Map<String, String> props = new LinkedHashMap<>(cluster.driverProperties());
    props.put("spark.extraListeners", TaskExecutorRecorder.class.getName());
    props.put("spark.cores.max", "2");
    props.putAll(SMALL_RANGES);
    props.put("spark.scheduler.minRegisteredResourcesRatio", "1.0");
    props.put("spark.scheduler.maxRegisteredResourcesWaitingTime", "40s");
    return props;
  }

  /** Runs {@code body} with these Java system properties set, then restores the old values. */
  private static <T> T withSparkProperties(Map<String, String> props, java.util.function.Supplier<T> body) {
    Map<String, String> old = new HashMap<>();
    props.forEach((k, v) -> old.put(k, System.setProperty(k, v)));
    try {
      return body.get();
    } finally {
      old.forEach((k, v) -> {
        if (v == null) {
          System.clearProperty(k);
        } else {
          System.setProperty(k, v);
        }
      });
    }
  }

  /** "worker-i/app-..." for every application directory in the workers' work dirs. */
  private static Set<String> appDirs() {
    Set<String> apps = new TreeSet<>();
    for (Path work : cluster.workerDirs()) {
      try (Stream<Path> dirs = Files.list(work)) {
        dirs.filter(d -> d.getFileName().toString().startsWith("app-"))
            .forEach(d -> apps.add(work.getFileName() + "/" + d.getFileName()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return apps;
  }

  /** Every {@code app-*\/<executor>/stderr} of these applications, with its text. */
  private static Map<Path, String> executorStderrs(Set<String> apps) {
    Map<Path, String> logs = new LinkedHashMap<>();
    Path workRoot = cluster.workerDirs().get(0).getParent();
    for (String app : apps) {
      try (Stream<Path> executors = Files.list(workRoot.resolve(app))) {
        for (Path executor : executors.sorted().toList()) {
          Path stderr = executor.resolve("stderr");
          if (Files.isRegularFile(stderr)) {
            logs.put(stderr, Files.readString(stderr, StandardCharsets.UTF_8));
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return logs;
  }

  private static String metric(Pattern pattern, Path metrics) {
    try {
      Matcher m = pattern.matcher(Files.readString(metrics, StandardCharsets.UTF_8));
      return m.find() ? m.group(1) : "(none)";
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }
}
