package io.pgbloat.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one external command to completion.
 *
 * <p>Standard input, output and error go through temporary files rather than pipes: {@code pg_ctl
 * start} leaves a postmaster behind, and a daemon that inherited a pipe would keep us waiting for
 * an end-of-file that never comes. Files also need no reader threads. The JVM opens them, so they
 * work unchanged when the command runs as another user through {@code runuser}.
 */
final class ProcessRunner {

  private ProcessRunner() {
  }

  /** What a finished command left behind. */
  record Result(List<String> command, int exitCode, String stdout, String stderr) {

    boolean succeeded() {
      return exitCode == 0;
    }

    /** Returns this result, or throws with the command, exit code and both outputs. */
    Result orThrow() {
      if (!succeeded()) {
        throw new IllegalStateException(describe());
      }
      return this;
    }

    String describe() {
      return "command " + command + " exited with " + exitCode
          + (stderr.isBlank() ? "" : "\n--- stderr ---\n" + stderr.strip())
          + (stdout.isBlank() ? "" : "\n--- stdout ---\n" + abbreviate(stdout.strip(), 4000));
    }
  }

  /**
   * Runs {@code command} in {@code workDir} with {@code stdin} (may be null) as its input and
   * waits at most {@code timeout}; on timeout it kills the command and all its descendants.
   */
  static Result run(List<String> command, String stdin, Path workDir, Duration timeout) {
    Path in = null;
    Path out = null;
    Path err = null;
    try {
      out = Files.createTempFile("pgbloat-cmd-", ".out");
      err = Files.createTempFile("pgbloat-cmd-", ".err");
      ProcessBuilder builder = new ProcessBuilder(command)
          .directory(workDir.toFile())
          .redirectOutput(out.toFile())
          .redirectError(err.toFile());
      if (stdin != null) {
        in = Files.createTempFile("pgbloat-cmd-", ".in");
        Files.writeString(in, stdin, StandardCharsets.UTF_8);
        builder.redirectInput(in.toFile());
      } else {
        builder.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
      }
      cleanEnvironment(builder.environment());
      Process process = builder.start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        // runuser forks and waits for its child, so kill the whole subtree, leaves first.
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
        throw new IllegalStateException("command " + command + " timed out after " + timeout
            + "\n--- stderr ---\n" + Files.readString(err, StandardCharsets.UTF_8));
      }
      return new Result(command, process.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + command, e);
    } finally {
      deleteQuietly(in);
      deleteQuietly(out);
      deleteQuietly(err);
    }
  }

  /**
   * Drops libpq's PG* variables (a developer's PGHOST or PGOPTIONS must not leak into the
   * test cluster) and forces the C locale so that messages we parse, such as
   * pg_controldata's "Database cluster state", are in English.
   */
  private static void cleanEnvironment(Map<String, String> env) {
    env.keySet().removeIf(name -> name.startsWith("PG"));
    env.put("LC_ALL", "C");
    env.put("LANG", "C");
  }

  private static void deleteQuietly(Path file) {
    if (file == null) {
      return;
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException ignored) {
      // a leftover temp file is not worth failing a test over
    }
  }

  static String abbreviate(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max) + "\n... (" + (text.length() - max) + " more chars)";
  }
}
