package io.pgbloat.testing;

import io.pgbloat.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** One in-process run of the command line ({@link Main#run}): exit status, stdout, stderr, wall time. */
public record ToolRun(int status, String out, String err, Duration elapsed) {

  /** Runs {@code args} in this JVM and captures everything. */
  public static ToolRun of(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    long started = System.nanoTime();
    int status = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
    return new ToolRun(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), elapsed);
  }

  /** Relations of a CSV report read only in part ({@code scanned_blocks < blocks}): a sample was drawn. */
  public long partlyReadRelations() {
    return Csv.parseWithHeader(out).stream()
        .filter(row -> Long.parseLong(row.get("scanned_blocks")) < Long.parseLong(row.get("blocks")))
        .count();
  }

  /** For assertion messages: status, time and stderr. */
  public String describe() {
    return "exit " + status + " after " + elapsed.toMillis() + " ms; stderr:\n" + err;
  }
}
