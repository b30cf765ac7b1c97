package io.pgbloat.io.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.io.store.HadoopFileStore;
import io.pgbloat.io.store.StoreSettings;
import io.pgbloat.page.PageHeader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Segment files measured as mdnblocks measures them, with two-block segments so the cases fit
 * in a few kilobytes: each damaged layout is reported, and the blocks PostgreSQL would see are
 * the blocks counted.
 */
class SegmentedFileTest {
  private static final int SEGMENT_BLOCKS = 2;
  @TempDir Path dir;

  private SegmentedFile.Measured measure(long... segmentBytes) throws IOException {
    for (int i = 0; i < segmentBytes.length; i++) {
      if (segmentBytes[i] >= 0) {
        Files.write(dir.resolve(SegmentedFile.segmentPath("16384", i)), new byte[(int) segmentBytes[i]]);
      }
    }
    try (HadoopFileStore files = HadoopFileStore.open(dir.toString(), StoreSettings.DEFAULT.configuration())) {
      return SegmentedFile.measure(files, "16384", SEGMENT_BLOCKS);
    }
  }

  private static final long BLOCK = PageHeader.BLCKSZ;

  @Test
  void wholeSegmentsAddUp() throws IOException {
    SegmentedFile.Measured m = measure(2 * BLOCK, 2 * BLOCK, BLOCK);
    assertEquals(5, m.file().blocks());
    assertEquals(List.of(), m.problems());
  }

  @Test
  void zeroLengthIsAnEmptyRelation() throws IOException {
    SegmentedFile.Measured m = measure(0);
    assertEquals(0, m.file().blocks());
    assertEquals(List.of(), m.problems());
  }

  @Test
  void missingFirstSegment() throws IOException {
    SegmentedFile.Measured m = measure(-1);
    assertEquals(0, m.file().blocks());
    assertEquals(List.of("relation file 16384 is missing (or not a regular file)"), m.problems());
  }

  @Test
  void missingMiddleSegment() throws IOException {
    SegmentedFile.Measured m = measure(2 * BLOCK, -1, 2 * BLOCK);
    assertEquals(2, m.file().blocks());
    assertEquals(List.of("segment 16384.1 is missing but 16384.2 follows: only the first 2 blocks are read, "
        + "as PostgreSQL would see them"), m.problems());
  }

  @Test
  void partialBlockAndSegmentsAfterAShortOne() throws IOException {
    SegmentedFile.Measured m = measure(2 * BLOCK, BLOCK + 100, 2 * BLOCK);
    assertEquals(3, m.file().blocks());
    assertEquals(2, m.problems().size(), m.problems().toString());
    assertTrue(m.problems().get(0).contains("16384.1 is 8292 bytes, not a multiple of 8192"), m.problems().get(0));
    assertTrue(m.problems().get(1).contains("16384.2 follows the short segment 16384.1"), m.problems().get(1));
  }

  @Test
  void oversizedSegmentReadsOnlyASegment() throws IOException {
    SegmentedFile.Measured m = measure(3 * BLOCK);
    assertEquals(2, m.file().blocks());
    assertTrue(m.problems().get(0).contains("larger than a segment"), m.problems().toString());
  }

  @Test
  void aDirectoryInPlaceOfTheFileIsMissing() throws IOException {
    Files.createDirectory(dir.resolve("16384"));
    try (HadoopFileStore files = HadoopFileStore.open(dir.toString(), StoreSettings.DEFAULT.configuration())) {
      SegmentedFile.Measured m = SegmentedFile.measure(files, "16384", SEGMENT_BLOCKS);
      assertEquals(0, m.file().blocks());
      assertEquals(1, m.problems().size());
    }
  }

  @Test
  void aSymlinkLoopIsMissingNotAnError() throws IOException {
    Files.createSymbolicLink(dir.resolve("16384"), dir.resolve("16384"));
    try (HadoopFileStore files = HadoopFileStore.open(dir.toString(), StoreSettings.DEFAULT.configuration())) {
      SegmentedFile.Measured m = SegmentedFile.measure(files, "16384", SEGMENT_BLOCKS);
      assertEquals(0, m.file().blocks());
      assertEquals(1, m.problems().size());
    }
  }
}
