package io.pgbloat.io.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

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
 * An unlogged relation's main fork as a started server has it, in every layout a copy can hold:
 * the init fork where a start resets the relation or the main fork is missing, the main fork
 * where a clean shutdown keeps it, and never the init fork of a relation that has none.
 */
class StartedMainForkTest {
  private static final int SEGMENT_BLOCKS = 2;
  private static final int BLOCK = PageHeader.BLCKSZ;
  private static final String RELPATH = "16384";
  @TempDir Path dir;

  /**
   * Writes the main fork of {@code mainBlocks} (none when negative) and the init fork of
   * {@code initBlocks}, each in segments of {@link #SEGMENT_BLOCKS}.
   */
  private StartedMainFork started(int mainBlocks, int initBlocks, boolean startRunsRecovery) throws IOException {
    write(RELPATH, mainBlocks);
    write(Fork.INIT.path(RELPATH), initBlocks);
    try (HadoopFileStore files = HadoopFileStore.open(dir.toString(), StoreSettings.DEFAULT.configuration())) {
      return StartedMainFork.ofUnlogged(files, RELPATH, SEGMENT_BLOCKS, startRunsRecovery);
    }
  }

  private void write(String relpath, int blocks) throws IOException {
    for (int segment = 0; blocks >= 0 && (segment == 0 || segment * SEGMENT_BLOCKS < blocks); segment++) {
      int inSegment = Math.min(SEGMENT_BLOCKS, blocks - segment * SEGMENT_BLOCKS);
      Files.write(dir.resolve(SegmentedFile.segmentPath(relpath, segment)), new byte[inSegment * BLOCK]);
    }
  }

  @Test
  void aStartThatRunsRecoveryReadsTheInitForkAndSetsTheMainForkAside() throws IOException {
    StartedMainFork main = started(5, 1, true);
    assertEquals(Fork.INIT.path(RELPATH), main.measured().file().relpath());
    assertEquals(1, main.measured().file().blocks());
    assertEquals(List.of(), main.measured().problems());
    assertEquals(5, main.setAside().blocks(), "all its segments: 2 + 2 + 1 blocks");
  }

  @Test
  void aCleanShutdownKeepsTheMainFork() throws IOException {
    StartedMainFork main = started(5, 0, false);
    assertEquals(RELPATH, main.measured().file().relpath());
    assertEquals(5, main.measured().file().blocks());
    assertNull(main.setAside());
  }

  @Test
  void aMissingMainForkIsTheInitForkWhateverTheStart() throws IOException {
    for (boolean recovery : new boolean[] {false, true}) {
      StartedMainFork main = started(-1, 1, recovery);
      assertEquals(Fork.INIT.path(RELPATH), main.measured().file().relpath());
      assertEquals(List.of(), main.measured().problems());
      assertNull(main.setAside(), "nothing to set aside: a base backup left it out");
    }
  }

  @Test
  void withoutAnInitForkTheRelationIsLeftAsItIs() throws IOException {
    StartedMainFork main = started(3, -1, true);
    assertEquals(RELPATH, main.measured().file().relpath());
    assertEquals(3, main.measured().file().blocks());
    assertNull(main.setAside());
  }
}
