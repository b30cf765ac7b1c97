package io.pgbloat.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real Spark standalone cluster on 127.0.0.1: one Master and {@code n} Workers, each a
 * separate {@code java} process started from this JVM's classpath, with a throw-away
 * {@code SPARK_HOME} whose {@code jars/} folder is empty (the executors get the classpath
 * through {@code spark.executor.extraClassPath}, see {@link #driverProperties()}).
 *
 * <p>{@link #close()} destroys every process it started and all their descendants (the
 * executors are children of the Workers), leaves first, and waits for them to end.
 */
public final class SparkStandaloneCluster implements AutoCloseable {

  /** Spark 4's --add-opens list for Java 17 (as pom.xml's spark.jvm.flags and PLATFORM.md). */
  public static final List<String> JVM_FLAGS = List.of(
      "--add-opens=java.base/java.lang=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
      "--add-opens=java.base/java.io=ALL-UNNAMED",
      "--add-opens=java.base/java.net=ALL-UNNAMED",
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
      "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
      "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
      "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
      "-Djdk.reflect.useDirectMethodHandle=false",
      "-Dio.netty.tryReflectionSetAccessible=true");

  /**
   * For the Master and Workers, and the executors: small heaps, quick start (C1 only, serial
   * GC); a test cluster on two cores spends most of its time starting JVMs.
   */
  private static final List<String> DAEMON_FLAGS = List.of("-Xmx256m", "-XX:+UseSerialGC",
      "-XX:TieredStopAtLevel=1", "-Xshare:auto");
  private static final List<String> EXECUTOR_FLAGS = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  private static final String HOST = "127.0.0.1";
  private static final Pattern ALIVE_WORKERS = Pattern.compile("\"aliveworkers\"\\s*:\\s*(\\d+)");

  private final Path home;
  private final String classpath;
  private final int masterPort;
  private final int webUiPort;
  private final List<Process> processes = new ArrayList<>();
  private final List<Path> workerDirs = new ArrayList<>();
  private final List<Path> logs = new ArrayList<>();

  /** Kills the processes should the test JVM end without {@link #close()} (a forked-VM timeout). */
  private final Thread shutdownHook = new Thread(this::destroyAll, "spark-standalone-cluster-cleanup");

  private SparkStandaloneCluster(Path home, String classpath, int masterPort, int webUiPort) {
    this.home = home;
    this.classpath = classpath;
    this.masterPort = masterPort;
    this.webUiPort = webUiPort;
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Starts a Master and {@code workers} Workers ({@code --cores 1 --memory 1g} each) under
   * {@code dir} and waits until the Master reports them all alive.
   */
  public static SparkStandaloneCluster start(Path dir, int workers, Duration timeout) {
    SparkStandaloneCluster cluster = launch(dir, workers);
    try {
      cluster.awaitWorkers(timeout);
      return cluster;
    } catch (RuntimeException | Error e) {
      cluster.close();
      throw e;
    }
  }

  /**
   * Launches a Master and {@code workers} Workers ({@code --cores 1 --memory 1g} each) under
   * {@code dir} without waiting for them: call {@link #awaitWorkers} before using the cluster,
   * and {@link #close()} in any case.
   */
  public static SparkStandaloneCluster launch(Path dir, int workers) {
    Path home = dir.resolve("spark-home");
    try {
      Files.createDirectories(home.resolve("jars"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    SparkStandaloneCluster cluster = new SparkStandaloneCluster(home, testClasspath(), freePort(), freePort());
    try {
      cluster.launch(dir.resolve("master.log"), "org.apache.spark.deploy.master.Master",
          "--host", HOST, "--port", Integer.toString(cluster.masterPort),
          "--webui-port", Integer.toString(cluster.webUiPort));
      for (int i = 0; i < workers; i++) {
        Path work = dir.resolve("worker-" + i);
        Files.createDirectories(work);
        cluster.workerDirs.add(work);
        cluster.launch(dir.resolve("worker-" + i + ".log"), "org.apache.spark.deploy.worker.Worker",
            "--host", HOST, "--cores", "1", "--memory", "1g", "--webui-port", Integer.toString(freePort()),
            "--work-dir", work.toString(), cluster.masterUrl());
      }
      return cluster;
    } catch (IOException e) {
      cluster.close();
      throw new UncheckedIOException(e);
    } catch (RuntimeException | Error e) {
      cluster.close();
      throw e;
    }
  }

  /** {@code spark://127.0.0.1:<port>}. */
  public String masterUrl() {
    return "spark://" + HOST + ":" + masterPort;
  }

  /** The Master's JSON status page. */
  public URI masterJson() {
    return URI.create("http://" + HOST + ":" + webUiPort + "/json/");
  }

  /** Each Worker's --work-dir, where it keeps {@code app-<id>/<executor>/stderr}. */
  public List<Path> workerDirs() {
    return List.copyOf(workerDirs);
  }

  /**
   * The {@code spark.*} settings a driver in this JVM needs for this cluster: executors get
   * this JVM's classpath (SPARK_HOME/jars is empty) and the --add-opens flags.
   */
  public Map<String, String> driverProperties() {
    return Map.of(
        "spark.executor.extraClassPath", classpath,
        "spark.executor.extraJavaOptions", String.join(" ", JVM_FLAGS) + " " + String.join(" ", EXECUTOR_FLAGS),
        "spark.driver.host", HOST);
  }

  /** The last lines of every process's output, for failure messages. */
  public String logTails() {
    StringBuilder out = new StringBuilder();
    for (Path log : logs) {
      out.append("--- ").append(log.getFileName()).append(" ---\n");
      try {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        lines.subList(Math.max(0, lines.size() - 20), lines.size()).forEach(l -> out.append(l).append('\n'));
      } catch (IOException e) {
        out.append("(unreadable: ").append(e).append(")\n");
      }
    }
    return out.toString();
  }

  private void launch(Path log, String mainClass, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(javaExecutable().toString());
    command.addAll(DAEMON_FLAGS);
    command.addAll(JVM_FLAGS);
    command.add("-cp");
    command.add(classpath);
    command.add(mainClass);
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command)
        .directory(home.toFile())
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Map<String, String> env = builder.environment();
    env.put("SPARK_HOME", home.toString());
    env.put("SPARK_SCALA_VERSION", "2.13");
    env.put("SPARK_LOCAL_IP", HOST);
    env.remove("SPARK_CONF_DIR");
    env.remove("HADOOP_CONF_DIR");
    logs.add(log);
    processes.add(builder.start());
  }

  /** Waits until the Master reports every launched Worker alive; throws with the logs if not. */
  public void awaitWorkers(Duration timeout) {
    int workers = workerDirs.size();
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "(no answer)";
    while (System.nanoTime() < deadline) {
      for (Process p : processes) {
        if (!p.isAlive()) {
          throw new IllegalStateException("a Spark process exited with " + p.exitValue() + "\n" + logTails());
        }
      }
      try {
        last = http.send(HttpRequest.newBuilder(masterJson()).timeout(Duration.ofSeconds(2)).build(),
            HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = ALIVE_WORKERS.matcher(last);
        if (m.find() && Integer.parseInt(m.group(1)) >= workers) {
          return;
        }
      } catch (IOException e) {
        last = e.toString();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      sleep(250);
    }
    throw new IllegalStateException("the Master did not report " + workers + " alive workers within " + timeout
        + "; last answer: " + last + "\n" + logTails());
  }

  /** Destroys every started process and its descendants (executors first), and waits for them. */
  @Override
  public void close() {
    destroyAll();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down
    }
  }

  private synchronized void destroyAll() {
    List<ProcessHandle> all = new ArrayList<>();
    for (Process p : processes) {
      p.toHandle().descendants().forEach(all::add);
    }
    for (Process p : processes) {
      all.add(p.toHandle());
    }
    all.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    for (ProcessHandle h : all) {
      try {
        h.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (Exception e) {
        h.destroyForcibly();
      }
    }
    processes.clear();
  }

  /** The {@code java} this JVM runs on. */
  public static Path javaExecutable() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  /**
   * This JVM's classpath as a list of real entries: surefire may run tests from a
   * manifest-only jar whose Class-Path lists the real ones, so such jars are expanded.
   */
  public static String testClasspath() {
    Set<String> entries = new LinkedHashSet<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (entry.isEmpty()) {
        continue;
      }
      Path path = Path.of(entry).toAbsolutePath();
      List<String> listed = manifestClassPath(path);
      if (listed.isEmpty()) {
        entries.add(path.toString());
      } else {
        entries.addAll(listed);
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  /** The entries of a manifest-only jar's Class-Path, or empty when {@code jar} has none or is not a jar. */
  private static List<String> manifestClassPath(Path jar) {
    if (!jar.getFileName().toString().startsWith("surefirebooter") || !Files.isRegularFile(jar)) {
      return List.of();
    }
    try (JarFile file = new JarFile(jar.toFile())) {
      Manifest manifest = file.getManifest();
      String cp = manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
      if (cp == null || cp.isBlank()) {
        return List.of();
      }
      List<String> out = new ArrayList<>();
      for (String url : cp.trim().split("\\s+")) {
        out.add(Path.of(jar.toUri().resolve(url)).toString());
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the manifest of " + jar, e);
    }
  }

  /** A TCP port free on 127.0.0.1 right now. */
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
