package io.pgbloat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
  void theCommandLineWinsOverTheToolDefaults() throws IOException {
    Files.writeString(dir.resolve("pgbloat.conf"), "# comment\nsample-blocks = 500\nio-concurrency = 4\nseed = 9\n");
    CommandLine cmd = CommandLine.parse(new String[] {"analyze", "--data-dir", "d", "--seed", "3"},
        () -> ConfigFiles.toolDefaults(dir));
    assertEquals(3, cmd.seed());
    assertEquals(500, cmd.sampleSize().value());
    assertEquals(4, cmd.io().concurrency());
  }

  /**
   * An object store reads 256 blocks a request unless a combine limit is set: the shipped
   * pgbloat.conf sets none, the command line or a file's line wins.
   */
  @Test
  void anObjectStoreCombinesMoreUnlessTheLimitIsSet() throws IOException {
    Path shipped = Path.of("conf");
    assertEquals(256, CommandLine.parse(new String[] {"analyze", "--data-dir", "s3a://bucket/pgdata"},
        () -> ConfigFiles.toolDefaults(shipped)).io().combineLimit());
    assertEquals(256, CommandLine.parse(new String[] {"analyze", "--data-dir", "barman:gs://b/p?server=x"},
        () -> ConfigFiles.toolDefaults(shipped)).io().combineLimit());
    assertEquals(64, CommandLine.parse(new String[] {"analyze", "--data-dir", "hdfs://nn/pgdata"},
        () -> ConfigFiles.toolDefaults(shipped)).io().combineLimit());
    assertEquals(32, CommandLine.parse(new String[] {"analyze", "--data-dir", "s3a://b/p", "--io-combine-limit", "32"},
        () -> ConfigFiles.toolDefaults(shipped)).io().combineLimit());
    Files.writeString(dir.resolve("pgbloat.conf"), "io-combine-limit = 16\n");
    assertEquals(16, CommandLine.parse(new String[] {"analyze", "--data-dir", "s3a://b/p"},
        () -> ConfigFiles.toolDefaults(dir)).io().combineLimit());
  }

  @Test
  void anObjectStoreReadsThroughWiderGapsUnlessTheLimitIsSet() throws IOException {
    Path shipped = Path.of("conf");
    assertEquals(64, CommandLine.parse(new String[] {"analyze", "--data-dir", "s3a://bucket/pgdata"},
        () -> ConfigFiles.toolDefaults(shipped)).io().gapLimit());
    assertEquals(4, CommandLine.parse(new String[] {"analyze", "--data-dir", "hdfs://nn/pgdata"},
        () -> ConfigFiles.toolDefaults(shipped)).io().gapLimit());
    assertEquals(0, CommandLine.parse(new String[] {"analyze", "--data-dir", "s3a://b/p", "--io-gap-limit", "0"},
        () -> ConfigFiles.toolDefaults(shipped)).io().gapLimit());
    Files.writeString(dir.resolve("pgbloat.conf"), "io-gap-limit = 8\n");
    assertEquals(8, CommandLine.parse(new String[] {"analyze", "--data-dir", "gs://b/p"},
        () -> ConfigFiles.toolDefaults(dir)).io().gapLimit());
  }

  @Test
  void anySampleSizeOnTheCommandLineReplacesTheDefaultOne() throws IOException {
    Files.writeString(dir.resolve("pgbloat.conf"), "sample-blocks = 500\nbuffered-io =\n");
    CommandLine cmd = CommandLine.parse(new String[] {"analyze", "--data-dir", "d", "--full-scan", "--direct-io"},
        () -> ConfigFiles.toolDefaults(dir));
    assertEquals(io.pgbloat.sample.SampleSize.Mode.FULL_SCAN, cmd.sampleSize().mode());
    assertTrue(cmd.io().directIo(), "--direct-io replaces the file's buffered-io");
  }

  @Test
  void unknownSettingIsAUsageError() throws IOException {
    Files.writeString(dir.resolve("pgbloat.conf"), "sample-size = 500\n");
    UsageException e = assertThrows(UsageException.class, () -> ConfigFiles.toolDefaults(dir));
    assertTrue(e.getMessage().contains("line 1: unknown setting 'sample-size'; it may set sample-blocks, "), e.getMessage());
  }

  /** A bad value names the file, the line and the setting, in the words of the option's own rule. */
  @Test
  void badValueNamesTheLine() throws IOException {
    Files.writeString(dir.resolve("pgbloat.conf"), "# x\nseed = 1\nio-gap-limit = many\n");
    UsageException e = assertThrows(UsageException.class, () -> ConfigFiles.toolDefaults(dir));
    assertEquals(dir.resolve("pgbloat.conf") + " line 3: io-gap-limit needs a whole number from 0 to 256, not 'many'",
        e.getMessage());
    Files.writeString(dir.resolve("pgbloat.conf"), "full-scan = true\nsample-blocks = 10\n");
    e = assertThrows(UsageException.class, () -> ConfigFiles.toolDefaults(dir));
    assertTrue(e.getMessage().endsWith("line 1: full-scan and " + dir.resolve("pgbloat.conf")
        + " line 2: sample-blocks cannot be combined; choose one way to size the sample"), e.getMessage());
  }

  /** --help shows even when the file is wrong; a flag the file sets false chooses nothing. */
  @Test
  void helpIgnoresTheFileAndAFalseFlagChoosesNothing() throws IOException {
    Files.writeString(dir.resolve("pgbloat.conf"), "seed = many\n");
    assertTrue(CommandLine.parse(new String[] {"analyze", "--help"}, () -> ConfigFiles.toolDefaults(dir)).help());
    Files.writeString(dir.resolve("pgbloat.conf"), "buffered-io = false\n");
    CommandLine cmd = CommandLine.parse(new String[] {"analyze", "--data-dir", "hdfs://nn:8020/pgdata"},
        () -> ConfigFiles.toolDefaults(dir));
    assertFalse(cmd.io().directIo(), "hdfs:// reads buffered, as with no such line");
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
    CommandLine cmd = CommandLine.parse(new String[] {"analyze", "--data-dir", "d"}, () -> ConfigFiles.toolDefaults(conf));
    assertEquals(3000, cmd.sampleSize().value());
    assertTrue(ConfigFiles.sparkDefaults(conf).containsKey("spark.ui.enabled"));
  }
}
