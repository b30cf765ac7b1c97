package io.pgbloat.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The one description of the options: what the surfaces share, and docs/options.md that shows it. */
class OptionsTest {
  private static final String TABLE_START = "<!-- options table: made from options/Options.java, checked by OptionsTest -->\n";
  private static final String TABLE_END = "<!-- end of options table -->";

  /**
   * The table in docs/options.md is the one {@link OptionDocs} renders; when an option changes,
   * this test writes the new table to target/options-table.md to paste in.
   */
  @Test
  void theOptionsPageShowsTheOptionsAsDescribed() throws IOException {
    String page = Files.readString(Path.of("docs", "options.md"), StandardCharsets.UTF_8);
    int start = page.indexOf(TABLE_START);
    int end = page.indexOf(TABLE_END);
    assertTrue(start >= 0 && end > start, "docs/options.md lacks the markers of the options table");
    String expected = OptionDocs.markdownTable();
    if (!page.substring(start + TABLE_START.length(), end).equals(expected)) {
      Files.createDirectories(Path.of("target"));
      Files.writeString(Path.of("target", "options-table.md"), expected, StandardCharsets.UTF_8);
    }
    assertEquals(expected, page.substring(start + TABLE_START.length(), end),
        "docs/options.md's options table is not the one Options describes: paste target/options-table.md between its markers");
  }

  @Test
  void namesAreUniqueOnEverySurface() {
    for (Surface surface : Surface.values()) {
      Set<String> seen = new HashSet<>();
      for (Option<?> option : Options.on(surface)) {
        assertTrue(seen.add(surface.spelling(option).toLowerCase(java.util.Locale.ROOT)), surface + ": "
            + surface.spelling(option) + " twice");
      }
    }
    assertEquals("sampleBlocks", Options.SAMPLE_BLOCKS.sourceName());
    assertEquals("ioGapLimit", Options.IO_GAP_LIMIT.sourceName());
    assertTrue(Options.find(Surface.DATA_SOURCE, "SAMPLEBLOCKS").isPresent(), "the data source ignores case");
    assertTrue(Options.find(Surface.CONFIG_FILE, "data-dir").isEmpty(), "the file sets no data directory");
  }

  /** Each surface says the same about a bad value, naming the option its own way. */
  @Test
  void oneMessagePerRule() {
    OptionValues values = new OptionValues();
    OptionException cli = assertThrows(OptionException.class,
        () -> values.set(Options.IO_CONCURRENCY, "0", Surface.COMMAND_LINE.spelling(Options.IO_CONCURRENCY)));
    OptionException source = assertThrows(OptionException.class,
        () -> values.set(Options.IO_CONCURRENCY, "0", Surface.DATA_SOURCE.spelling(Options.IO_CONCURRENCY)));
    assertEquals("--io-concurrency needs a whole number from 1 to 256, not '0'", cli.getMessage());
    assertEquals("ioConcurrency needs a whole number from 1 to 256, not '0'", source.getMessage());
    assertEquals("--min-percent needs a number from 0 to 100, not '101'", assertThrows(OptionException.class,
        () -> values.set(Options.MIN_PERCENT, "101", "--min-percent")).getMessage());
    values.set(Options.LEVEL, "Totals", "level");
    assertEquals("totals", values.get(Options.LEVEL), "a choice ignores case");
  }

  /** A group is one choice: two of it on one surface fail; the later surface's choice replaces the earlier's. */
  @Test
  void aGroupIsOneChoice() {
    OptionValues file = new OptionValues();
    file.set(Options.SAMPLE_BLOCKS, "500", "sample-blocks");
    file.set(Options.SEED, "9", "seed");
    OptionException twice = assertThrows(OptionException.class, () -> file.set(Options.FULL_SCAN, "true", "full-scan"));
    assertEquals("sample-blocks and full-scan cannot be combined; choose one way to size the sample", twice.getMessage());
    OptionValues line = new OptionValues();
    line.set(Options.SAMPLE_PERCENT, "5", "--sample-percent");
    OptionValues merged = line.over(file);
    assertEquals(io.pgbloat.sample.SampleSize.percent(5), Options.sampleSize(merged));
    assertEquals(9L, merged.get(Options.SEED), "what the command line leaves alone stays");
    OptionValues off = new OptionValues();
    off.set(Options.FULL_SCAN, "false", "fullScan");
    off.set(Options.SAMPLE_BLOCKS, "10", "sampleBlocks"); // a flag given as false is no choice
    assertEquals(io.pgbloat.sample.SampleSize.blocks(10), Options.sampleSize(off));
  }
}
