package io.pgbloat.io.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A member's share of its archive's HDFS blocks, in the member's own offsets. */
class FileExtentTest {
  @Test
  void aMemberAcrossTwoBlocks() {
    List<FileExtent> archive = List.of(new FileExtent(0, 100, List.of("a")), new FileExtent(100, 100, List.of("b")),
        new FileExtent(200, 100, List.of("c")));
    assertEquals(List.of(new FileExtent(0, 30, List.of("a")), new FileExtent(30, 50, List.of("b"))),
        FileExtent.within(archive, 70, 80));
    assertEquals(List.of(), FileExtent.within(archive, 300, 10), "past the archive's blocks");
  }
}
