package io.pgbloat.cli;

import io.pgbloat.spark.ScanProgress;
import java.io.PrintStream;
import java.util.Locale;

/**
 * A progress line on the terminal while the scan runs: blocks read of planned, rate, time
 * left; rewritten in place ({@code \r}) at most {@link #MIN_INTERVAL_NANOS} apart and wiped at
 * the end. Silent with --quiet and when the tool is not run from a terminal.
 */
final class ProgressLine implements ScanProgress {
  /** Five updates a second at most: enough to look alive, too few to cost anything. */
  private static final long MIN_INTERVAL_NANOS = 200_000_000L;

  private final PrintStream err;
  private final boolean on;
  private final long started = System.nanoTime();
  private long lastPrinted;
  private int width;

  private ProgressLine(PrintStream err, boolean on) {
    this.err = err;
    this.on = on;
  }

  /** A line on {@code err} whatever is attached (for tests). */
  static ProgressLine always(PrintStream err) {
    return new ProgressLine(err, true);
  }

  /** A line on {@code err} when a terminal is attached and not {@code quiet}. */
  static ProgressLine forTerminal(PrintStream err, boolean quiet) {
    return new ProgressLine(err, !quiet && System.console() != null);
  }

  @Override
  public synchronized void update(long blocksDone, long blocksPlanned) {
    long now = System.nanoTime();
    if (!on || (now - lastPrinted < MIN_INTERVAL_NANOS && blocksDone < blocksPlanned)) {
      return;
    }
    lastPrinted = now;
    String line = text(blocksDone, blocksPlanned, (now - started) / 1e9);
    err.print("\r" + line + " ".repeat(Math.max(0, width - line.length())));
    err.flush();
    width = Math.max(width, line.length());
  }

  /** Wipes the line, so what follows starts on a clean one. */
  synchronized void finish() {
    if (on && width > 0) {
      err.print("\r" + " ".repeat(width) + "\r");
      err.flush();
      width = 0;
    }
  }

  static String text(long done, long planned, double seconds) {
    double rate = seconds > 0 ? done / seconds : 0;
    String left = rate > 0 && done < planned ? String.format(Locale.ROOT, ", %.0f s left", (planned - done) / rate) : "";
    return String.format(Locale.ROOT, "pgbloat: %,d of %,d blocks read (%d %%), %.0f blocks/s%s", done, planned,
        planned == 0 ? 100 : done * 100 / planned, rate, left);
  }
}
