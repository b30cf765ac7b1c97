package io.pgbloat.io.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pgbloat.io.store.FileExtent;
import io.pgbloat.io.store.FileStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BlockHostsTest {
  /** Two segment files of 4 blocks, stored in storage blocks of 2 pages on different hosts. */
  static final class Located implements FileStore {
    @Override public String root() { return "test"; }
    @Override public long length(String path) { return 4 * 8192; }
    @Override public boolean isDirectory(String path) { return false; }
    @Override public List<String> list(String path) { return List.of(); }
    @Override public void readFully(String path, long position, byte[] b, int off, int len) {}
    @Override public void close() {}

    @Override
    public List<FileExtent> extents(String path) {
      boolean first = !path.endsWith(".1");
      return List.of(
          new FileExtent(0, 2 * 8192, first ? List.of("a", "b") : List.of("c", "b")),
          new FileExtent(2 * 8192, 2 * 8192, first ? List.of("a", "c") : List.of("c", "a")));
    }
  }

  @Test
  void bytesAreCountedPerHostAcrossSegments() throws Exception {
    BlockHosts hosts = new BlockHosts(new Located());
    SegmentedFile file = new SegmentedFile("base/1/2", 4, 8);
    // blocks 1..5: block 1 (a,b), blocks 2,3 (a,c), block 4 (c,b), block 5 (c,b)
    Map<String, Long> bytes = hosts.bytesByHost(file, BlockList.range(1, 5));
    assertEquals(Map.of("a", 3L * 8192, "b", 3L * 8192, "c", 4L * 8192), bytes);
  }
}
