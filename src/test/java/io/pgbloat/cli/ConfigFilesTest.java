package io.pgbloat.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigFilesTest {
  @TempDir Path dir;

  @Test
  void toolDefaultsComeFirstAndTheCommandLineWins() throws IOException {
    Files.writeString(dir.resolve("pgbloat.conf"), "# comment\nsample-blocks = 500\nio-concurrency = 4\nseed = 9\n");
    String[] merged = ConfigFiles.withToolDefaults(new String[] {"analyze", "--data-dir", "d", "--seed", "3"}, dir);
    assertArrayEquals(new String[] {"analyze", "--sample-blocks", "500", "--io-concurrency", "4", "--data-dir", "d",
        "--seed", "3"}, merged);
    CommandLine cmd = CommandLine.parse(merged);
    assertEquals(3, cmd.seed());
    assertEquals(500, cmd.sampleSize().value());
    assertEquals(4, cmd.io().concurrency());
  }

  @Test
  void anySampleSizeOnTheCommandLineReplacesTheDefaultOne() throws IOException {
    Files.writeString(dir.resolve("pgbloat.conf"), "sample-blocks = 500\n");
    CommandLine cmd = CommandLine.parse(
        ConfigFiles.withToolDefaults(new String[] {"analyze", "--data-dir", "d", "--full-scan"}, dir));
    assertEquals(io.pgbloat.sample.SampleSize.Mode.FULL_SCAN, cmd.sampleSize().mode());
  }

  @Test
  void unknownSettingIsAUsageError() throws IOException {
    Files.writeString(dir.resolve("pgbloat.conf"), "sample-size = 500\n");
    UsageException e = assertThrows(UsageException.class,
        () -> ConfigFiles.withToolDefaults(new String[] {"analyze", "--data-dir", "d"}, dir));
    assertTrue(e.getMessage().contains("unknown setting 'sample-size'"), e.getMessage());
  }

  @Test
  void sparkDefaultsAreKeyValueLines() throws IOException {
    Files.writeString(dir.resolve("spark-defaults.conf"), "# x\nspark.ui.enabled   false\nspark.task.maxFailures 2\n");
    assertEquals(Map.of("spark.ui.enabled", "false", "spark.task.maxFailures", "2"), ConfigFiles.sparkDefaults(dir));
    assertEquals(Map.of(), ConfigFiles.sparkDefaults(dir.resolve("none")));
  }

  @Test
  void shippedConfigurationParses() {
    Path conf = Path.of("conf");
    CommandLine cmd = CommandLine.parse(ConfigFiles.withToolDefaults(new String[] {"analyze", "--data-dir", "d"}, conf));
    assertEquals(3000, cmd.sampleSize().value());
    assertTrue(ConfigFiles.sparkDefaults(conf).containsKey("spark.ui.enabled"));
  }
}
