package io.pgbloat.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A throwaway PostgreSQL cluster for tests: initdb into a temp directory, start, run SQL
 * through psql, stop cleanly, copy the stopped data directory, delete everything on close.
 *
 * <p>The server is the system's PostgreSQL 15 unless {@link Builder#version} asks for another
 * major (13 to 18), which {@link PostgresInstallation} fetches on first use.
 *
 * <p>The server listens on a Unix socket in its own directory only, so parallel clusters never
 * collide and nothing is reachable over the network. When the JVM runs as root, every binary is
 * run as the OS user {@code postgres} (see {@link ServerUser}).
 *
 * <pre>{@code
 * PostgresCluster.assumeServer();      // or assumeServer(17) with .version(17) below
 * try (PostgresCluster pg = PostgresCluster.builder().init()) {
 *     pg.start();
 *     pg.psql("postgres", "CREATE TABLE t AS SELECT 1 AS x");
 *     List<Map<String, String>> rows = pg.queryCsv("postgres", "SELECT * FROM t");
 *     pg.stop();
 * }
 * }</pre>
 */
public final class PostgresCluster implements AutoCloseable {

  public static final String DEFAULT_BIN = PostgresInstallation.DEFAULT_SYSTEM_BIN;
  public static final String SUPERUSER = "postgres";
  public static final int DEFAULT_MAJOR = PostgresInstallation.SYSTEM_MAJOR;

  private static final List<String> REQUIRED_BINARIES =
      List.of("initdb", "pg_ctl", "postgres", "psql", "pg_controldata");
  private static final Duration SERVER_TIMEOUT = Duration.ofMinutes(2);
  private static final int SQL_TIMEOUT_MINUTES = 10;
  private static final Duration SQL_TIMEOUT = Duration.ofMinutes(SQL_TIMEOUT_MINUTES);
  private static final Pattern CLUSTER_STATE = Pattern.compile("(?m)^Database cluster state:\\s*(.+?)\\s*$");

  private final Path bin;
  private final int major;
  private final ServerUser user;
  private final Path baseDir;
  private final Path dataDir;
  private final Path socketDir;
  private final Path logFile;
  private final int port;
  /** For {@link #onDataDirectory}: a data directory outside {@link #baseDir}, deleted by close(). */
  private final boolean dataDirOutsideBase;
  private boolean running;

  private PostgresCluster(Path bin, int major, ServerUser user, Path baseDir, int port) {
    this(bin, major, user, baseDir, baseDir.resolve("data"), port);
  }

  private PostgresCluster(Path bin, int major, ServerUser user, Path baseDir, Path dataDir, int port) {
    this.bin = bin;
    this.major = major;
    this.user = user;
    this.baseDir = baseDir;
    this.dataDir = dataDir;
    this.socketDir = baseDir.resolve("sock");
    this.logFile = baseDir.resolve("server.log");
    this.port = port;
    this.dataDirOutsideBase = !dataDir.startsWith(baseDir);
  }

  /** The system's PostgreSQL 15 bin directory: {@code $PG_BIN}, else {@value #DEFAULT_BIN}. */
  public static Path binDir() {
    return PostgresInstallation.systemBinDir();
  }

  /** Whether the PostgreSQL 15 binaries this harness needs are installed. */
  public static boolean available() {
    return available(DEFAULT_MAJOR);
  }

  /** Why {@link #available()} is false, worded for a skipped test; empty when available. */
  public static String unavailableReason() {
    return unavailableReason(DEFAULT_MAJOR);
  }

  /**
   * Whether a server of {@code major} can be started; for a major other than 15 this fetches
   * it first (see {@link PostgresInstallation#binDir}), so a failed fetch reads as unavailable.
   */
  public static boolean available(int major) {
    return unavailableReason(major).isEmpty();
  }

  /** Why {@link #available(int)} is false, worded for a skipped test; empty when available. */
  public static String unavailableReason(int major) {
    if (major == DEFAULT_MAJOR) {
      List<String> missing = missingBinaries(binDir());
      return missing.isEmpty() ? ""
          : "PostgreSQL 15 binaries not found in " + binDir() + " (missing " + String.join(", ", missing)
              + "); install postgresql-15 or set PG_BIN to its bin directory";
    }
    Path dir;
    try {
      dir = PostgresInstallation.binDir(major);
    } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
      return e.getMessage();
    }
    List<String> missing = missingBinaries(dir);
    return missing.isEmpty() ? ""
        : "PostgreSQL " + major + " binaries not found in " + dir + " (missing " + String.join(", ", missing) + ")";
  }

  /**
   * Skips the calling test when no PostgreSQL 15 server can be started, with the reason; under
   * CI ({@code CI=true}) fails it instead, so a broken CI machine cannot pass by skipping.
   */
  public static void assumeServer() {
    assumeServer(DEFAULT_MAJOR);
  }

  /** {@link #assumeServer()} for a server of {@code major} (fetched first if need be). */
  public static void assumeServer(int major) {
    Requirement.require(unavailableReason(major));
  }

  private static List<String> missingBinaries(Path dir) {
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

    private int major = DEFAULT_MAJOR;
    private boolean dataChecksums = true;
    private String encoding = "UTF8";
    private String locale = "C";
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

    /** The server's major version, one of {@link PostgresInstallation#majors()}; 15 by default. */
    public Builder version(int major) {
      if (!PostgresInstallation.majors().contains(major)) {
        throw new IllegalArgumentException("no PostgreSQL " + major + "; supported majors are "
            + PostgresInstallation.majors());
      }
      this.major = major;
      return this;
    }

    /**
     * {@code initdb --data-checksums}; on by default. Off passes {@code --no-data-checksums} on
     * 18 and later, whose initdb turns checksums on by default.
     */
    public Builder dataChecksums(boolean on) {
      this.dataChecksums = on;
      return this;
    }

    /**
     * initdb's {@code -E}, the encoding of template1 and postgres; UTF8 by default. A database in
     * another encoding can also be made with {@code CREATE DATABASE x ENCODING 'LATIN1'
     * LOCALE 'C' TEMPLATE template0}.
     */
    public Builder encoding(String encoding) {
      this.encoding = encoding;
      return this;
    }

    /** initdb's {@code --locale}; C by default (byte order, no collation surprises). */
    public Builder locale(String locale) {
      this.locale = locale;
      return this;
    }

    /** Adds or replaces a postgresql.conf line; {@code value} is written verbatim (quote strings). */
    public Builder setting(String name, String value) {
      settings.put(name, value);
      return this;
    }

    /** Runs initdb in a new temp directory; the cluster is stopped until {@link #start()}. */
    public PostgresCluster init() {
      String reason = unavailableReason(major);
      if (!reason.isEmpty()) {
        throw new IllegalStateException(reason);
      }
      Path bin = major == DEFAULT_MAJOR ? binDir() : PostgresInstallation.binDir(major);
      ServerUser user = ServerUser.detect();
      // The fetched versions live in a cache under java.io.tmpdir, e.g. below /root.
      user.makeReachable(bin);
      Path base;
      try {
        base = Files.createTempDirectory("pgbloat-pg-");
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create a temp directory for the cluster", e);
      }
      PostgresCluster cluster = new PostgresCluster(bin, major, user, base, freePort());
      try {
        cluster.initdb(dataChecksums, encoding, locale, settings);
        return cluster;
      } catch (RuntimeException e) {
        DirectoryTrees.delete(base);
        throw e;
      }
    }
  }

  /**
   * A cluster on a copy of {@code source}, a stopped data directory (a stopped server's, a
   * standby's, a base backup): the tree is copied to a new temp directory's {@code data} (see
   * {@link DirectoryTrees#copy}), so the server started on it changes the copy only. Otherwise
   * as {@link #onDataDirectory}; close() deletes the copy.
   */
  public static PostgresCluster onCopyOf(Path source) {
    Path base = newBaseDirectory();
    try {
      DirectoryTrees.copy(source, base.resolve("data"));
      return adopt(base, base.resolve("data"));
    } catch (RuntimeException e) {
      DirectoryTrees.delete(base);
      throw e;
    }
  }

  /**
   * A cluster on the existing, stopped data directory {@code dataDir} as it is (e.g. one that
   * {@link #pgBasebackup(Path, String...)} wrote with {@code -R}, to start as a standby): it
   * gets its own temp directory for socket and log and its own port. The tree is handed to the
   * server user, the directory made mode 0700 (as the server demands), and postgresql.conf gets
   * this harness's {@code listen_addresses}, {@code port} and {@code unix_socket_directories}
   * appended (later lines win over the source cluster's). The server binaries are those of the
   * directory's PG_VERSION. close() stops the server and deletes the temp directory and
   * {@code dataDir}.
   */
  public static PostgresCluster onDataDirectory(Path dataDir) {
    Path base = newBaseDirectory();
    try {
      return adopt(base, dataDir.toAbsolutePath().normalize());
    } catch (RuntimeException e) {
      DirectoryTrees.delete(base);
      throw e;
    }
  }

  /**
   * A cluster restored from a {@code pg_basebackup -Ft} directory, as its documentation says to
   * restore one: base.tar unpacked into a new temp directory's {@code data}, pg_wal.tar into
   * {@code data/pg_wal}, each tablespace's {@code <oid>.tar} into a directory of its own, with
   * {@code tablespace_map} pointing there (the server makes the links when it starts). Unpacked
   * with the system's {@code tar}. Start it to recover from the backup; otherwise as
   * {@link #onDataDirectory}.
   */
  public static PostgresCluster onTarBackup(Path backup) {
    Path base = newBaseDirectory();
    try {
      Path data = base.resolve("data");
      Files.createDirectories(data);
      untar(backup.resolve("base.tar"), data);
      Files.createDirectories(data.resolve("pg_wal"));
      if (Files.exists(backup.resolve("pg_wal.tar"))) {
        untar(backup.resolve("pg_wal.tar"), data.resolve("pg_wal"));
      }
      StringBuilder map = new StringBuilder();
      try (java.util.stream.Stream<Path> files = Files.list(backup)) {
        for (Path archive : files.filter(f -> f.getFileName().toString().matches("[0-9]+\\.tar")).sorted().toList()) {
          String oid = archive.getFileName().toString().replace(".tar", "");
          Path location = base.resolve("tablespace_" + oid);
          Files.createDirectories(location);
          untar(archive, location);
          map.append(oid).append(' ').append(location).append('\n');
        }
      }
      if (map.length() > 0) {
        Files.writeString(data.resolve("tablespace_map"), map.toString(), StandardCharsets.US_ASCII);
      }
      PostgresCluster cluster = adopt(base, data);
      try (java.util.stream.Stream<Path> dirs = Files.list(base)) {
        for (Path dir : dirs.filter(d -> d.getFileName().toString().startsWith("tablespace_")).toList()) {
          Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
          cluster.user.handOverTree(dir);
        }
      }
      return cluster;
    } catch (IOException e) {
      DirectoryTrees.delete(base);
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      DirectoryTrees.delete(base);
      throw e;
    }
  }

  private static void untar(Path archive, Path into) {
    ProcessRunner.run(List.of("tar", "-xf", archive.toString(), "-C", into.toString()), null, into, SERVER_TIMEOUT)
        .orThrow();
  }

  private static Path newBaseDirectory() {
    try {
      return Files.createTempDirectory("pgbloat-pg-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temp directory for the cluster", e);
    }
  }

  private static PostgresCluster adopt(Path base, Path dataDir) {
    int major;
    try {
      major = Integer.parseInt(Files.readString(dataDir.resolve("PG_VERSION"), StandardCharsets.US_ASCII).strip());
    } catch (IOException | NumberFormatException e) {
      throw new IllegalArgumentException(dataDir + " is not a data directory (no readable PG_VERSION)", e);
    }
    String reason = unavailableReason(major);
    if (!reason.isEmpty()) {
      throw new IllegalStateException(reason);
    }
    Path bin = major == DEFAULT_MAJOR ? binDir() : PostgresInstallation.binDir(major);
    ServerUser user = ServerUser.detect();
    user.makeReachable(bin);
    PostgresCluster cluster = new PostgresCluster(bin, major, user, base, dataDir, freePort());
    user.makeReachable(base);
    user.handOver(base);
    try {
      Files.createDirectory(cluster.socketDir);
      Files.setPosixFilePermissions(dataDir, PosixFilePermissions.fromString("rwx------"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    user.handOver(cluster.socketDir);
    user.makeReachable(dataDir);
    user.handOverTree(dataDir);
    cluster.appendConf("postgresql.conf", Map.of(
        "listen_addresses", "''",
        "port", Integer.toString(cluster.port),
        "unix_socket_directories", "'" + cluster.socketDir + "'"));
    return cluster;
  }

  /**
   * Appends {@code name = value} (verbatim: quote strings) to postgresql.auto.conf of the
   * stopped cluster. That file is read after postgresql.conf, so the line wins over both, e.g.
   * {@code primary_conninfo = ''} over the one {@code pg_basebackup -R} wrote there.
   */
  public void setting(String name, String value) {
    if (running) {
      throw new IllegalStateException("setting() needs a stopped cluster");
    }
    appendConf("postgresql.auto.conf", Map.of(name, value));
  }

  private void appendConf(String file, Map<String, String> settings) {
    StringBuilder lines = new StringBuilder("\n# added by io.pgbloat.testing.PostgresCluster\n");
    new TreeMap<>(settings).forEach((name, value) -> lines.append(name).append(" = ").append(value).append('\n'));
    try {
      // Appending keeps the file's owner (postgres) even when we write as root.
      Files.writeString(dataDir.resolve(file), lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    user.handOver(dataDir.resolve(file));
  }

  private void initdb(boolean dataChecksums, String encoding, String locale, Map<String, String> extraSettings) {
    user.makeReachable(baseDir);
    user.handOver(baseDir);
    try {
      Files.createDirectory(socketDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    user.handOver(socketDir);

    List<String> command = new ArrayList<>(List.of(bin("initdb"), "-D", dataDir.toString(), "-U", SUPERUSER,
        "--auth=trust", "-E", encoding, "--locale=" + locale, "--no-sync"));
    if (dataChecksums) {
      command.add("--data-checksums");
    } else if (major >= 18) {
      command.add("--no-data-checksums");
    }
    run(command, null, SERVER_TIMEOUT).orThrow();
    // A PG_BIN of another major, or a broken cache, must not pass for the version asked for.
    String written = dataVersion();
    if (!written.equals(Integer.toString(major))) {
      throw new IllegalStateException("asked for PostgreSQL " + major + " but initdb in " + bin
          + " wrote a cluster of version " + written);
    }

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
   * disk are complete and consistent for an offline reader. A standby (a server in recovery)
   * must say "shut down in recovery" instead; its CHECKPOINT is a restartpoint, which writes
   * the replayed pages only once a checkpoint record has been replayed since the last one.
   */
  public void stop() {
    requireRunning();
    boolean inRecovery = isInRecovery();
    psql("postgres", "CHECKPOINT");
    ProcessRunner.Result result = pgCtlStop("fast");
    if (!result.succeeded()) {
      throw new IllegalStateException(result.describe() + "\n--- server log ---\n" + logTail());
    }
    running = false;
    String state = controlState();
    String expected = inRecovery ? "shut down in recovery" : "shut down";
    if (!expected.equals(state)) {
      throw new IllegalStateException("after pg_ctl stop, pg_controldata says '" + state
          + "' instead of '" + expected + "'\n--- server log ---\n" + logTail());
    }
  }

  /**
   * Waits until the running server has left recovery (a restore promoted at its target): a server
   * in archive recovery takes read-only connections once consistent, before recovery ends and
   * resets its unlogged relations, so what it shows until then is not the restored cluster yet.
   */
  public void awaitEndOfRecovery() {
    long deadline = System.nanoTime() + SERVER_TIMEOUT.toNanos();
    while (isInRecovery()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the server is still in recovery after " + SERVER_TIMEOUT
            + "\n--- server log ---\n" + logTail());
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  /** Whether the running server is in recovery (a standby): {@code pg_is_in_recovery()}. */
  public boolean isInRecovery() {
    return "t".equals(queryCsv("postgres", "SELECT pg_is_in_recovery() AS r").get(0).get("r"));
  }

  /** The server's major version, e.g. 15 (what initdb wrote to PG_VERSION). */
  public int major() {
    return major;
  }

  /** The bin directory the cluster's binaries come from. */
  public Path bin() {
    return bin;
  }

  public boolean isRunning() {
    return running;
  }

  /**
   * The "Database cluster state" line of pg_controldata, e.g. "shut down" or "in production".
   * pg_controldata is always 15's; on an 18 cluster it first warns that the CRC does not match
   * (the file's layout grew), but the state is among the leading fields and still right.
   */
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
    return pgBasebackup(target, "-X", "fetch");
  }

  /**
   * {@link #pgBasebackup(Path)} with {@code extraArgs} in place of {@code -X fetch}: e.g.
   * {@code "-X", "stream"} (the WAL streamed alongside the copy, as by default), plus
   * {@code "-R"} for a standby ({@code standby.signal} and a {@code primary_conninfo} to this
   * server in postgresql.auto.conf; start it with {@link #onDataDirectory}), or {@code "-Ft"} for
   * tar format (restore it with {@link #onTarBackup}). A fast checkpoint first, no fsync.
   * Returns pg_basebackup's standard error.
   */
  public String pgBasebackup(Path target, String... extraArgs) {
    requireRunning();
    List<String> command = new ArrayList<>(List.of(bin("pg_basebackup"), "-D", target.toString(),
        "-h", socketDir.toString(), "-p", Integer.toString(port), "-U", SUPERUSER,
        "--checkpoint=fast", "--no-sync"));
    command.addAll(List.of(extraArgs));
    ProcessRunner.Result result = run(command, null, SQL_TIMEOUT);
    if (!result.succeeded()) {
      throw new IllegalStateException(result.describe() + "\n--- server log ---\n" + logTail());
    }
    return result.stderr();
  }

  /**
   * Takes a low-level online copy of the running server into {@code target}, as snapshot and
   * file-copy tools take one: in one psql session a non-exclusive backup is started
   * ({@code pg_backup_start}; before 15 {@code pg_start_backup} with {@code exclusive} false),
   * the data directory is copied with {@code cp -a} while the server runs, the backup is stopped
   * and the label it returns written as the copy's {@code backup_label}, and {@code pg_wal} is
   * copied again so that the copy holds the WAL up to the backup's end. {@code postmaster.pid}
   * and {@code postmaster.opts} are left out, as the documentation says. {@code target} must
   * not exist and its parent must be the server user's (e.g. {@link #baseDir()}); the server
   * needs {@code wal_level} {@code replica} ({@link Builder#setting}). Start a server on it with
   * {@link #onCopyOf}: it recovers from the label.
   */
  public void onlineCopyTo(Path target) {
    requireRunning();
    String start = major >= 15 ? "SELECT pg_backup_start('pgbloat', true)"
        : "SELECT pg_start_backup('pgbloat', true, false)";
    String stop = major >= 15 ? "SELECT labelfile FROM pg_backup_stop()" : "SELECT labelfile FROM pg_stop_backup(false)";
    String data = "'" + dataDir + "'";
    String copy = "'" + target + "'";
    psql("postgres", String.join("\n",
        "\\o /dev/null", start + ";", "\\o",
        "\\! cp -a " + data + " " + copy,
        "\\pset tuples_only on", "\\pset format unaligned",
        "\\o " + target.resolve("backup_label"), stop + ";", "\\o",
        "\\! cp -a " + data + "/pg_wal/. " + copy + "/pg_wal/", ""));
    try {
      Files.deleteIfExists(target.resolve("postmaster.pid"));
      Files.deleteIfExists(target.resolve("postmaster.opts"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (!Files.isRegularFile(target.resolve("backup_label")) || !Files.isRegularFile(target.resolve("PG_VERSION"))) {
      throw new IllegalStateException("the online copy in " + target + " has no backup_label or no PG_VERSION");
    }
  }

  /**
   * Runs the install's {@code pgbench} against database {@code db} with {@code args} (e.g.
   * {@code "-i", "-s", "2"}, or {@code "-c", "4", "-j", "2", "-T", "10", "-n"}) and waits for it;
   * returns its standard output (the summary) followed by its standard error (progress,
   * messages). Throws with both when it exits non-zero. Call it from another thread for a load
   * in the background; it runs at most {@value #SQL_TIMEOUT_MINUTES} minutes.
   */
  public String pgbench(String db, String... args) {
    requireRunning();
    List<String> command = new ArrayList<>(List.of(bin("pgbench"), "-h", socketDir.toString(),
        "-p", Integer.toString(port), "-U", SUPERUSER));
    command.addAll(List.of(args));
    command.add(db);
    ProcessRunner.Result result = run(command, null, SQL_TIMEOUT);
    if (!result.succeeded()) {
      throw new IllegalStateException(result.describe());
    }
    return result.stdout() + result.stderr();
  }

  /**
   * Runs {@code command} as the server user in this cluster's directory (e.g. {@code pgbackrest},
   * which reads the data directory and is run by the same user as the server) and waits at most
   * {@value #SQL_TIMEOUT_MINUTES} minutes; returns its standard output and error, and throws with
   * both when it exits non-zero.
   */
  public String runAsServerUser(String... command) {
    ProcessRunner.Result result = run(List.of(command), null, SQL_TIMEOUT).orThrow();
    return result.stdout() + result.stderr();
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

  /**
   * Waits until the WAL summarizer ({@code summarize_wal = on}, 17 and later) has summarized all
   * the WAL up to the last checkpoint's redo point, at most {@code within}.
   */
  public void awaitWalSummarized(Duration within) {
    String target = queryCsv("postgres", "SELECT redo_lsn FROM pg_control_checkpoint()").get(0).get("redo_lsn");
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      String done = queryCsv("postgres", "SELECT summarized_lsn >= '" + target + "'::pg_lsn AS d FROM"
          + " pg_get_wal_summarizer_state()").get(0).get("d");
      if ("t".equals(done)) {
        return;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the WAL summarizer", e);
      }
    }
    throw new AssertionError("the WAL summarizer did not reach " + target + " within " + within);
  }

  public Path logFile() {
    return logFile;
  }

  /**
   * Stops the server if it runs (fast, else immediate) and deletes the temp directory (and the
   * data directory of {@link #onDataDirectory}).
   */
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
        if (dataDirOutsideBase) {
          DirectoryTrees.delete(dataDir);
        }
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

  private String dataVersion() {
    try {
      return Files.readString(dataDir.resolve("PG_VERSION"), StandardCharsets.US_ASCII).strip();
    } catch (IOException e) {
      throw new UncheckedIOException("initdb left no PG_VERSION in " + dataDir, e);
    }
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
