package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.cli.Main;
import io.pgbloat.testing.SampleData;
import io.pgbloat.testing.ToolRun;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped sample data directory, analyzed with no server: every column of every relation
 * equals what pgstattuple said on the server that made it. The sample was copied before any
 * truth scan, so most of its tuples have no hint bits and pg_xact/pg_multixact decide.
 */
class SampleDataDirectoryTest {

  @Test
  void fullScanEqualsPgstattupleOnEveryRelation() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(new String[] {"analyze", "--data-dir", SampleData.dataDir().toString(), "--full-scan",
        "--format", "csv", "--master", "local[2]"}, new PrintStream(out, true), new PrintStream(err, true));
    String stderr = err.toString(StandardCharsets.UTF_8);
    assertEquals(0, status, stderr);
    assertEquals("", stderr);
    List<String> differences = Report.differences(SampleData.pgstattuple(), out.toString(StandardCharsets.UTF_8));
    assertTrue(differences.isEmpty(), () -> String.join("\n", differences));
  }

  /**
   * The sample's compressed tar backup, streamed with no server: its full scan is the sample's
   * truth, and a sample of it reads the very blocks a sample of the directory reads (the same
   * report, byte for byte), though every block is decoded.
   */
  @Test
  void itsCompressedBackupStreamedGivesTheSameAnswers() {
    assertSameAnswers(SampleData.compressedTarBackup().toString(), "the backup's archives are compressed, so they are streamed");
  }

  /** The sample's pgBackRest backup (zst, bundled), read in place with no server: the same answers. */
  @Test
  void itsPgBackRestBackupGivesTheSameAnswers() {
    assertSameAnswers(SampleData.pgBackRestBackup(), "the backup's files are compressed (zstd), so each file read is decoded");
  }

  /**
   * A compressed archive whose bytes all decode but whose content checksum does not match
   * (here the LZ4 frame's last byte): the backup is refused in one line, exit 1, before
   * anything is counted, since no page checksum need see such damage.
   */
  @Test
  void aCompressedArchiveWhoseChecksumFailsIsRefusedInOneLine(@TempDir Path dir) throws IOException {
    Path backup = SampleData.compressedTarBackup();
    for (String archive : List.of("base.tar", "pg_wal.tar")) {
      Path lz4 = dir.resolve(archive + ".lz4");
      try (InputStream tar = new GZIPInputStream(Files.newInputStream(backup.resolve(archive + ".gz")));
          OutputStream out = new LZ4FrameOutputStream(Files.newOutputStream(lz4), LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB,
              LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE, LZ4FrameOutputStream.FLG.Bits.CONTENT_CHECKSUM)) {
        tar.transferTo(out);
      }
    }
    byte[] base = Files.readAllBytes(dir.resolve("base.tar.lz4"));
    base[base.length - 1] ^= 0x01;
    Files.write(dir.resolve("base.tar.lz4"), base);
    ToolRun run = ToolRun.of("analyze", "--data-dir", dir.toString(), "--full-scan", "--format", "csv");
    assertEquals(1, run.status(), run.describe());
    assertEquals(List.of("pgbloat: Cannot read the backup in " + dir + ": " + dir.resolve("base.tar.lz4")
        + ": does not decode as .lz4 (LZ4 frame: the content checksum does not match: the stream is damaged): "
        + "it is truncated or damaged"), run.err().lines().toList(), run.describe());
  }

  /**
   * A compressed archive whose codec header is damaged, or that is empty, is refused in one line
   * naming it, exit 1: the decoder's header is read inside what reports a damaged archive.
   */
  @Test
  void aCompressedArchiveWithoutItsHeaderIsRefusedInOneLine(@TempDir Path dir) throws IOException {
    Files.copy(SampleData.compressedTarBackup().resolve("pg_wal.tar.gz"), dir.resolve("pg_wal.tar.gz"));
    for (byte[] base : List.of(new byte[4096], new byte[0])) {
      Files.write(dir.resolve("base.tar.gz"), base);
      ToolRun run = ToolRun.of("analyze", "--data-dir", dir.toString(), "--full-scan", "--format", "csv");
      assertEquals(1, run.status(), run.describe());
      assertEquals(List.of("pgbloat: Cannot read the backup in " + dir + ": " + dir.resolve("base.tar.gz")
          + ": does not decode as .gz (" + (base.length > 0 ? "Not in GZIP format" : "it ends early")
          + "): it is truncated or damaged"), run.err().lines().toList(), run.describe());
    }
  }

  /**
   * The backup's full scan gives the sample's truth, with the warning that says how it is
   * streamed; a sample of it gives the report a sample of the directory gives.
   */
  private static void assertSameAnswers(String backup, String warning) {
    ToolRun full = ToolRun.of("analyze", "--data-dir", backup, "--full-scan", "--format", "csv", "--master", "local[2]");
    assertEquals(0, full.status(), full.describe());
    assertTrue(full.err().contains("pgbloat: warning: " + warning), full.err());
    List<String> differences = Report.differences(SampleData.pgstattuple(), full.out());
    assertTrue(differences.isEmpty(), () -> String.join("\n", differences));
    String[] sampled = {"--sample-blocks", "7", "--seed", "11", "--format", "csv", "--master", "local[2]"};
    assertEquals(run(SampleData.dataDir().toString(), sampled), run(backup, sampled));
  }

  private static String run(String dataDir, String... options) {
    List<String> args = new java.util.ArrayList<>(List.of("analyze", "--data-dir", dataDir));
    args.addAll(List.of(options));
    ToolRun run = ToolRun.of(args.toArray(String[]::new));
    assertEquals(0, run.status(), run.describe());
    return run.out();
  }
}
