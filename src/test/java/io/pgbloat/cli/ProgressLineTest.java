package io.pgbloat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

  @Test
  void rewritesInPlaceAtMostFiveTimesASecondAndWipesItself() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    ProgressLine line = ProgressLine.always(new PrintStream(err, true, StandardCharsets.UTF_8));
    line.update(10, 100);
    line.update(20, 100); // within 200 ms of the first: not shown
    line.update(100, 100); // the end is always shown
    String shown = err.toString(StandardCharsets.UTF_8);
    assertEquals(2, shown.chars().filter(c -> c == '\r').count(), shown);
    assertTrue(shown.startsWith("\rpgbloat: 10 of 100 blocks read (10 %)"), shown);
    assertTrue(shown.contains("\rpgbloat: 100 of 100 blocks read (100 %)"), shown);
    assertFalse(shown.contains("20 of 100"), shown);
    int width = shown.lastIndexOf('\r') > 0 ? shown.length() - shown.lastIndexOf('\r') - 1 : 0;
    err.reset();
    line.finish();
    assertEquals("\r" + " ".repeat(width) + "\r", err.toString(StandardCharsets.UTF_8));
  }
}
