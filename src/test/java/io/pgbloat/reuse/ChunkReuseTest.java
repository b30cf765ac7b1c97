package io.pgbloat.reuse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.pgbloat.changes.ForkChanges;
import io.pgbloat.changes.RelationFork;
import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.Fork;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which kept chunks a run reuses, and which blocks it reads again. */
class ChunkReuseTest {
  private static final RelationFork FILE = new RelationFork(1663, 5, 16384, Fork.MAIN);

  /** Every chunk of a file of {@code blocks} blocks kept, in chunks of 4. */
  private static KeptFile kept(long blocks) {
    List<KeptChunk> chunks = new ArrayList<>();
    for (long c = 0; c * 4 < blocks; c++) {
      chunks.add(new KeptChunk(c, (int) Math.min(4, blocks - c * 4), new long[] {c}, new long[0]));
    }
    return new KeptFile(FILE, "heap columns ", chunks);
  }

  private static List<Long> numbers(ChunkReuse reuse) {
    return reuse.reused().stream().map(KeptChunk::chunk).toList();
  }

  @Test
  void chunksWithAModifiedBlockAreReadTheRestReused() {
    ChunkReuse reuse = ChunkReuse.of(16, 4, kept(16), new ForkChanges(FILE, ForkChanges.NO_LIMIT, BlockList.of(5, 6, 15)));
    assertEquals(List.of(0L, 2L), numbers(reuse));
    assertEquals(BlockList.of(4, 5, 6, 7, 12, 13, 14, 15), reuse.toRead());
    assertEquals(8, reuse.reusedBlocks());
  }

  @Test
  void aTruncationReadsItsChunkAndEveryOneAfterIt() {
    ChunkReuse reuse = ChunkReuse.of(16, 4, kept(16), new ForkChanges(FILE, 9, BlockList.of()));
    assertEquals(List.of(0L, 1L), numbers(reuse));
    assertEquals(BlockList.range(8, 8), reuse.toRead());
  }

  @Test
  void aFileGrownOrShrunkReadsTheChunksWhoseLengthDiffers() {
    ChunkReuse grown = ChunkReuse.of(14, 4, kept(10), new ForkChanges(FILE, ForkChanges.NO_LIMIT, BlockList.of()));
    assertEquals(List.of(0L, 1L), numbers(grown), "chunk 2 had 2 blocks, now 4; chunk 3 is new");
    assertEquals(BlockList.range(8, 6), grown.toRead());
    ChunkReuse created = ChunkReuse.of(16, 4, kept(16), new ForkChanges(FILE, 0, BlockList.of()));
    assertEquals(List.of(), numbers(created));
    assertEquals(BlockList.range(0, 16), created.toRead());
  }

  @Test
  void aStateKeepsChunksOfAPowerOfTwoAndRefusesAnotherFormat() {
    assertThrows(IllegalArgumentException.class, () -> RunState.of(null, 6, List.of()));
    RunState older = new RunState(RunState.FORMAT_VERSION - 1, RunState.SUMS_LAYOUT, null, 4, List.of());
    assertEquals(true, older.unreadable().contains("another version"));
    RunState otherMeasures = new RunState(RunState.FORMAT_VERSION, "TUPLE_COUNT", null, 4, List.of());
    assertEquals(true, otherMeasures.unreadable().contains("other measures"));
    assertEquals(null, RunState.of(null, 4, List.of()).unreadable());
  }

  @Test
  void relationPathsNameTheirFiles() {
    assertEquals(new RelationFork(1663, 5, 16384, Fork.MAIN), RelationFork.mainOf("base/5/16384"));
    assertEquals(new RelationFork(1664, 0, 1262, Fork.MAIN), RelationFork.mainOf("global/1262"));
    assertEquals(new RelationFork(16400, 5, 16401, Fork.MAIN),
        RelationFork.mainOf("pg_tblspc/16400/PG_17_202406281/5/16401"));
    assertThrows(IllegalArgumentException.class, () -> RelationFork.mainOf("base/5/x"));
  }
}
