package io.pgbloat.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The OS user that runs the PostgreSQL binaries.
 *
 * <p>PostgreSQL refuses to run as root ({@code initdb}, {@code pg_ctl} and {@code postgres} all
 * check). Tests here and in CI run as root, so then every binary goes through
 * {@code runuser -u postgres --} and every file the server must write is handed to that user.
 * When the JVM is not root, binaries run directly as the current user and nothing is chowned.
 */
final class ServerUser {

  static final String SERVER_USER = "postgres";

  /** Null when the JVM is not root: then no switch of user is needed. */
  private final UserPrincipal switchTo;
  private final String runuser;

  private ServerUser(UserPrincipal switchTo, String runuser) {
    this.switchTo = switchTo;
    this.runuser = runuser;
  }

  static ServerUser detect() {
    if (new com.sun.security.auth.module.UnixSystem().getUid() != 0) {
      return new ServerUser(null, null);
    }
    UserPrincipal user;
    try {
      user = Path.of("/").getFileSystem().getUserPrincipalLookupService()
          .lookupPrincipalByName(SERVER_USER);
    } catch (UserPrincipalNotFoundException e) {
      throw new IllegalStateException("Running as root, so the PostgreSQL binaries must run as the OS user '"
          + SERVER_USER + "', which does not exist. Create it (e.g. `useradd --system --create-home "
          + SERVER_USER + "`) or run the tests as a non-root user.", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new ServerUser(user, findRunuser());
  }

  boolean switchesUser() {
    return switchTo != null;
  }

  /** The command line that runs {@code command} as the server user. */
  List<String> command(List<String> command) {
    if (switchTo == null) {
      return command;
    }
    List<String> wrapped = new ArrayList<>(List.of(runuser, "-u", SERVER_USER, "--"));
    wrapped.addAll(command);
    return wrapped;
  }

  /** Makes {@code path} (one file or directory, not recursive) the server user's own. */
  void handOver(Path path) {
    if (switchTo == null) {
      return;
    }
    try {
      Files.setOwner(path, switchTo);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot chown " + path + " to " + SERVER_USER, e);
    }
  }

  /**
   * {@link #handOver} for a whole tree (e.g. a data directory copied by the JVM's user), links
   * themselves rather than what they point to; a tablespace link's target is not followed.
   */
  void handOverTree(Path root) {
    if (switchTo == null) {
      return;
    }
    try (java.util.stream.Stream<Path> paths = Files.walk(root)) {
      for (Path p : (Iterable<Path>) paths::iterator) {
        Files.getFileAttributeView(p, PosixFileAttributeView.class, java.nio.file.LinkOption.NOFOLLOW_LINKS)
            .setOwner(switchTo);
      }
    } catch (IOException | UncheckedIOException e) {
      throw new IllegalStateException("cannot chown the tree " + root + " to " + SERVER_USER, e);
    }
  }

  /**
   * Lets the server user walk down to {@code dir}: adds the execute (search) bit for others to
   * every ancestor that lacks it. Without it the server cannot reach its data directory when
   * java.io.tmpdir lives under a private directory such as /root.
   */
  void makeReachable(Path dir) {
    if (switchTo == null) {
      return;
    }
    for (Path p = dir.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
      try {
        PosixFileAttributeView view = Files.getFileAttributeView(p, PosixFileAttributeView.class);
        Set<PosixFilePermission> perms = view.readAttributes().permissions();
        if (!perms.contains(PosixFilePermission.OTHERS_EXECUTE)) {
          perms.add(PosixFilePermission.OTHERS_EXECUTE);
          view.setPermissions(perms);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot make " + p + " traversable for " + SERVER_USER, e);
      }
    }
  }

  private static String findRunuser() {
    // Not always on PATH (e.g. a non-login root shell in a container lacks /usr/sbin).
    for (String candidate : List.of("/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser", "/bin/runuser")) {
      if (Files.isExecutable(Path.of(candidate))) {
        return candidate;
      }
    }
    return "runuser";
  }
}
