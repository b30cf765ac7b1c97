package io.pgbloat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The progress line's text, and its silence when no terminal is attached (as under a test runner). */
class ProgressLineTest {
  @Test
  void textShowsBlocksShareRateAndTimeLeft() {
    assertEquals("pgbloat: 1,500 of 6,000 blocks read (25 %), 750 blocks/s, 6 s left", ProgressLine.text(1500, 6000, 2.0));
    assertEquals("pgbloat: 6,000 of 6,000 blocks read (100 %), 3000 blocks/s", ProgressLine.text(6000, 6000, 2.0));
    assertEquals("pgbloat: 0 of 0 blocks read (100 %), 0 blocks/s", ProgressLine.text(0, 0, 0));
  }

  @Test
  void silentWithoutATerminalOrWithQuiet() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream stream = new PrintStream(err, true, StandardCharsets.UTF_8);
    for (boolean quiet : new boolean[] {false, true}) {
      ProgressLine line = ProgressLine.forTerminal(stream, quiet);
      line.update(10, 100);
      line.update(100, 100);
      line.finish();
    }
    assertEquals("", err.toString(StandardCharsets.UTF_8)); // surefire's JVM has no console
  }
}
