package io.pgbloat.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.io.store.LocalFileStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which summaries cover a span: from its start, without a gap, on its timeline. */
class WalSummariesTest {
  @TempDir
  Path dataDir;

  private WalSummaries summaries() throws IOException {
    Path dir = Files.createDirectories(dataDir.resolve(WalSummaryName.DIRECTORY));
    for (WalSummaryName s : List.of(new WalSummaryName(1, 0x100_0000L, 0x200_0000L),
        new WalSummaryName(1, 0x200_0000L, 0x300_0000L), new WalSummaryName(1, 0x400_0000L, 0x500_0000L),
        new WalSummaryName(2, 0x500_0000L, 0x1_0000_0000L))) {
      Files.createFile(dataDir.resolve(s.path()));
    }
    Files.createFile(dir.resolve("temp.summary"));
    return WalSummaries.in(LocalFileStore.open(dataDir.toString()));
  }

  @Test
  void namesRoundTripAndOthersAreNotSummaries() {
    WalSummaryName s = new WalSummaryName(3, 0x1_0000_0028L, 0x1_2A00_00B8L);
    assertEquals("pg_wal/summaries/000000030000000100000028000000012A0000B8.summary", s.path());
    assertEquals(s, WalSummaryName.parse(s.path().substring(WalSummaryName.DIRECTORY.length() + 1)).orElseThrow());
    assertTrue(WalSummaryName.parse("temp.summary").isEmpty());
    assertTrue(WalSummaryName.parse("000000030000000100000028000000012a0000b8.summary").isEmpty());
    assertEquals("1/2A0000B8", WalSummaryName.lsn(0x1_2A00_00B8L));
  }

  @Test
  void aCoverRunsFromTheSpansStartWithoutAGap() throws IOException {
    WalSummaries all = summaries();
    assertEquals(4, all.names().size());
    SummaryCover inside = all.cover(1, 0x180_0000L, 0x280_0000L);
    assertTrue(inside.isComplete());
    assertEquals(2, inside.summaries().size());
    SummaryCover gap = all.cover(1, 0x100_0000L, 0x480_0000L);
    assertFalse(gap.isComplete());
    assertEquals(0x300_0000L, gap.coveredTo());
    assertEquals("the WAL summaries of timeline 1 cover 0/1000000 to 0/4800000 only up to 0/3000000", gap.gap());
    SummaryCover before = all.cover(1, 0x80_0000L, 0x180_0000L);
    assertFalse(before.isComplete(), "the WAL before the first summary is not summarized");
    assertFalse(all.cover(1, 0x500_0000L, 0x600_0000L).isComplete(), "timeline 2's summary is not timeline 1's");
    assertTrue(all.cover(2, 0x500_0000L, 0x600_0000L).isComplete());
    assertTrue(all.cover(1, 0x200_0000L, 0x200_0000L).isComplete(), "an empty span is covered");
  }
}
