package io.pgbloat.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A throwaway PostgreSQL 15 cluster for tests: initdb into a temp directory, start, run SQL
 * through psql, stop cleanly, copy the stopped data directory, delete everything on close.
 *
 * <p>The server listens on a Unix socket in its own directory only, so parallel clusters never
 * collide and nothing is reachable over the network. When the JVM runs as root, every binary is
 * run as the OS user {@code postgres} (see {@link ServerUser}).
 *
 * <pre>{@code
 * assumeTrue(PostgresCluster.available(), PostgresCluster.unavailableReason());
 * try (PostgresCluster pg = PostgresCluster.builder().init()) {
 *     pg.start();
 *     pg.psql("postgres", "CREATE TABLE t AS SELECT 1 AS x");
 *     List<Map<String, String>> rows = pg.queryCsv("postgres", "SELECT * FROM t");
 *     pg.stop();
 * }
 * }</pre>
 */
public final class PostgresCluster implements AutoCloseable {

  public static final String DEFAULT_BIN = "/usr/lib/postgresql/15/bin";
  public static final String SUPERUSER = "postgres";

  private static final List<String> REQUIRED_BINARIES =
      List.of("initdb", "pg_ctl", "postgres", "psql", "pg_controldata");
  private static final Duration SERVER_TIMEOUT = Duration.ofMinutes(2);
  private static final Duration SQL_TIMEOUT = Duration.ofMinutes(10);
  private static final Pattern CLUSTER_STATE = Pattern.compile("(?m)^Database cluster state:\\s*(.+?)\\s*$");

  private final Path bin;
  private final ServerUser user;
  private final Path baseDir;
  private final Path dataDir;
  private final Path socketDir;
  private final Path logFile;
  private final int port;
  private boolean running;

  private PostgresCluster(Path bin, ServerUser user, Path baseDir, int port) {
    this.bin = bin;
    this.user = user;
    this.baseDir = baseDir;
    this.dataDir = baseDir.resolve("data");
    this.socketDir = baseDir.resolve("sock");
    this.logFile = baseDir.resolve("server.log");
    this.port = port;
  }

  /** The PostgreSQL bin directory: {@code $PG_BIN}, else {@value #DEFAULT_BIN}. */
  public static Path binDir() {
    String env = System.getenv("PG_BIN");
    return Path.of(env == null || env.isBlank() ? DEFAULT_BIN : env);
  }

  /** Whether the PostgreSQL binaries this harness needs are installed. */
  public static boolean available() {
    return missingBinaries().isEmpty();
  }

  /** Why {@link #available()} is false, worded for a skipped test; empty when available. */
  public static String unavailableReason() {
    List<String> missing = missingBinaries();
    return missing.isEmpty() ? ""
        : "PostgreSQL 15 binaries not found in " + binDir() + " (missing " + String.join(", ", missing)
            + "); install postgresql-15 or set PG_BIN to its bin directory";
  }

  private static List<String> missingBinaries() {
    Path dir = binDir();
    List<String> missing = new ArrayList<>();
    for (String name : REQUIRED_BINARIES) {
      if (!Files.isExecutable(dir.resolve(name))) {
        missing.add(name);
      }
    }
    return missing;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Options for {@code initdb} and postgresql.conf; {@link #init()} creates the cluster. */
  public static final class Builder {

    private boolean dataChecksums = true;
    // Deterministic, fast, single-user behaviour: nothing runs behind the test's back
    // (autovacuum, parallel workers, synchronized scans starting mid-table) and
    // wal_level=minimal lets CREATE TABLE + COPY in one transaction skip WAL.
    private final Map<String, String> settings = new LinkedHashMap<>();

    private Builder() {
      settings.put("autovacuum", "off");
      settings.put("fsync", "off");
      settings.put("full_page_writes", "off");
      settings.put("max_prepared_transactions", "16");
      settings.put("shared_buffers", "32MB");
      settings.put("max_parallel_workers_per_gather", "0");
      settings.put("synchronize_seqscans", "off");
      settings.put("jit", "off");
      settings.put("wal_level", "minimal");
      settings.put("max_wal_senders", "0");
    }

    /** {@code initdb --data-checksums}; on by default. */
    public Builder dataChecksums(boolean on) {
      this.dataChecksums = on;
      return this;
    }

    /** Adds or replaces a postgresql.conf line; {@code value} is written verbatim (quote strings). */
    public Builder setting(String name, String value) {
      settings.put(name, value);
      return this;
    }

    /** Runs initdb in a new temp directory; the cluster is stopped until {@link #start()}. */
    public PostgresCluster init() {
      if (!available()) {
        throw new IllegalStateException(unavailableReason());
      }
      ServerUser user = ServerUser.detect();
      Path base;
      try {
        base = Files.createTempDirectory("pgbloat-pg-");
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create a temp directory for the cluster", e);
      }
      PostgresCluster cluster = new PostgresCluster(binDir(), user, base, freePort());
      try {
        cluster.initdb(dataChecksums, settings);
        return cluster;
      } catch (RuntimeException e) {
        DirectoryTrees.delete(base);
        throw e;
      }
    }
  }

  private void initdb(boolean dataChecksums, Map<String, String> extraSettings) {
    user.makeReachable(baseDir);
    user.handOver(baseDir);
    try {
      Files.createDirectory(socketDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    user.handOver(socketDir);

    List<String> command = new ArrayList<>(List.of(bin("initdb"), "-D", dataDir.toString(), "-U", SUPERUSER,
        "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"));
    if (dataChecksums) {
      command.add("--data-checksums");
    }
    run(command, null, SERVER_TIMEOUT).orThrow();

    // Only the socket: the port number merely names .s.PGSQL.<port> in our private socket dir.
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("listen_addresses", "''");
    conf.put("port", Integer.toString(port));
    conf.put("unix_socket_directories", "'" + socketDir + "'");
    conf.putAll(extraSettings);
    StringBuilder lines = new StringBuilder("\n# added by io.pgbloat.testing.PostgresCluster\n");
    conf.forEach((name, value) -> lines.append(name).append(" = ").append(value).append('\n'));
    try {
      // Appending keeps the file's owner (postgres) even when we write as root.
      Files.writeString(dataDir.resolve("postgresql.conf"), lines, StandardCharsets.UTF_8,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public void start() {
    if (running) {
      throw new IllegalStateException("cluster already running");
    }
    ProcessRunner.Result result = run(List.of(bin("pg_ctl"), "-D", dataDir.toString(), "-l", logFile.toString(),
        "-w", "-t", Long.toString(SERVER_TIMEOUT.toSeconds()), "start"), null, SERVER_TIMEOUT.plusSeconds(30));
    if (!result.succeeded()) {
      throw new IllegalStateException(result.describe() + "\n--- server log ---\n" + logTail());
    }
    running = true;
  }

  /**
   * CHECKPOINT, fast shutdown, then checks that pg_control says "shut down", so the files on
   * disk are complete and consistent for an offline reader.
   */
  public void stop() {
    requireRunning();
    psql("postgres", "CHECKPOINT");
    ProcessRunner.Result result = pgCtlStop("fast");
    if (!result.succeeded()) {
      throw new IllegalStateException(result.describe() + "\n--- server log ---\n" + logTail());
    }
    running = false;
    String state = controlState();
    if (!"shut down".equals(state)) {
      throw new IllegalStateException("after pg_ctl stop, pg_controldata says '" + state
          + "' instead of 'shut down'\n--- server log ---\n" + logTail());
    }
  }

  public boolean isRunning() {
    return running;
  }

  /** The "Database cluster state" line of pg_controldata, e.g. "shut down" or "in production". */
  public String controlState() {
    String out = run(List.of(bin("pg_controldata"), "-D", dataDir.toString()), null, SERVER_TIMEOUT)
        .orThrow().stdout();
    Matcher m = CLUSTER_STATE.matcher(out);
    if (!m.find()) {
      throw new IllegalStateException("no 'Database cluster state' in pg_controldata output:\n" + out);
    }
    return m.group(1);
  }

  /**
   * Runs {@code sql} (any number of statements and psql meta-commands) in database {@code db}
   * and returns psql's standard output; stops at the first error and throws with its message.
   */
  public String psql(String db, String sql) {
    requireRunning();
    ProcessRunner.Result result = run(List.of(bin("psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1",
        "-h", socketDir.toString(), "-p", Integer.toString(port), "-U", SUPERUSER, "-d", db), sql, SQL_TIMEOUT);
    if (!result.succeeded()) {
      throw new IllegalStateException("psql in database '" + db + "' failed (exit " + result.exitCode() + "):\n"
          + result.stderr().strip() + "\n--- SQL ---\n" + ProcessRunner.abbreviate(sql.strip(), 4000));
    }
    return result.stdout();
  }

  /** Runs one SELECT (no trailing semicolon needed) and returns its rows keyed by column name. */
  public List<Map<String, String>> queryCsv(String db, String select) {
    String query = select.strip();
    while (query.endsWith(";")) {
      query = query.substring(0, query.length() - 1).strip();
    }
    return Csv.parseWithHeader(psql(db, "COPY (" + query + "\n) TO STDOUT WITH (FORMAT csv, HEADER)"));
  }

  /**
   * Copies the data directory of the stopped cluster to {@code target}, which must not exist.
   * The copy belongs to the JVM's user. Tablespaces (links under pg_tblspc that point outside
   * the data directory) are copied to {@code <target>_links/<oid>} and linked relatively, so
   * the copy is independent of this cluster; see {@link DirectoryTrees#copy}.
   */
  public void copyDataDirTo(Path target) {
    if (running) {
      throw new IllegalStateException("copyDataDirTo needs a stopped cluster; call stop() first");
    }
    DirectoryTrees.copy(dataDir, target);
  }

  /**
   * Takes a base backup of the running server with {@code pg_basebackup} into {@code target},
   * which must not exist and whose parent the server user can write (e.g. under
   * {@link #baseDir()}): plain format, the WAL fetched at the end ({@code -X fetch}), a fast
   * checkpoint first. The server needs {@code wal_level} {@code replica} and
   * {@code max_wal_senders} above 0 (see {@link Builder#setting}); initdb's default pg_hba lets
   * the superuser replicate over the socket. Returns pg_basebackup's standard error.
   */
  public String pgBasebackup(Path target) {
    requireRunning();
    ProcessRunner.Result result = run(List.of(bin("pg_basebackup"), "-D", target.toString(),
        "-h", socketDir.toString(), "-p", Integer.toString(port), "-U", SUPERUSER,
        "-X", "fetch", "--checkpoint=fast", "--no-sync"), null, SQL_TIMEOUT);
    if (!result.succeeded()) {
      throw new IllegalStateException(result.describe() + "\n--- server log ---\n" + logTail());
    }
    return result.stderr();
  }

  /** Runs {@code pg_controldata} on any data directory (e.g. a copy or a backup) and returns its output. */
  public String controlData(Path dir) {
    return run(List.of(bin("pg_controldata"), "-D", dir.toString()), null, SERVER_TIMEOUT).orThrow().stdout();
  }

  /**
   * Creates an empty directory under this cluster's temp directory, owned by the server user,
   * e.g. for {@code CREATE TABLESPACE ... LOCATION}. It is deleted with the cluster.
   */
  public Path newServerDirectory(String name) {
    Path dir = baseDir.resolve(name);
    try {
      Files.createDirectory(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    user.handOver(dir);
    return dir;
  }

  public Path dataDir() {
    return dataDir;
  }

  /** The cluster's own temp directory (data dir, socket dir, log); a place for scratch copies. */
  public Path baseDir() {
    return baseDir;
  }

  public Path socketDir() {
    return socketDir;
  }

  public int port() {
    return port;
  }

  public Path logFile() {
    return logFile;
  }

  /** Stops the server if it runs (fast, else immediate) and deletes the temp directory. */
  @Override
  public void close() {
    RuntimeException failure = null;
    if (running) {
      try {
        if (!pgCtlStop("fast").succeeded()) {
          pgCtlStop("immediate").orThrow();
        }
        running = false;
      } catch (RuntimeException e) {
        failure = e;
      }
    }
    if (!running) {
      // Never delete the files under a server that may still be running.
      try {
        DirectoryTrees.delete(baseDir);
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public String toString() {
    return "PostgresCluster[" + dataDir + ", socket " + socketDir + ", port " + port
        + (running ? ", running" : ", stopped") + "]";
  }

  private ProcessRunner.Result pgCtlStop(String mode) {
    return run(List.of(bin("pg_ctl"), "-D", dataDir.toString(), "-m", mode, "-w",
        "-t", Long.toString(SERVER_TIMEOUT.toSeconds()), "stop"), null, SERVER_TIMEOUT.plusSeconds(30));
  }

  private ProcessRunner.Result run(List<String> command, String stdin, Duration timeout) {
    // The working directory must be one the server user can enter: initdb and pg_ctl call getcwd().
    return ProcessRunner.run(user.command(command), stdin, baseDir, timeout);
  }

  private void requireRunning() {
    if (!running) {
      throw new IllegalStateException("cluster is not running; call start() first");
    }
  }

  private String bin(String name) {
    return bin.resolve(name).toString();
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no server log at " + logFile + ": " + e + ")";
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free port number", e);
    }
  }
}
