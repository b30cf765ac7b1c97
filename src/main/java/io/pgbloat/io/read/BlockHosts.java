package io.pgbloat.io.read;

import io.pgbloat.io.store.FileExtent;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.page.PageHeader;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which hosts hold which blocks of the relation files, so each range can prefer the hosts
 * holding most of its bytes (HDFS {@code getFileBlockLocations}). Asks once per segment file.
 */
public final class BlockHosts {
  private final FileStore files;
  private final Map<String, List<FileExtent>> extents = new HashMap<>();

  public BlockHosts(FileStore files) {
    this.files = files;
  }

  /** Bytes of {@code blocks} of {@code file} held by each host (a replica counts for each). */
  public Map<String, Long> bytesByHost(SegmentedFile file, BlockList blocks) throws IOException {
    Map<String, Long> bytes = new HashMap<>();
    for (int run = 0; run < blocks.runCount(); run++) {
      long first = blocks.runStart(run);
      long end = first + blocks.runLength(run);
      while (first < end) {
        int segment = (int) (first / file.segmentBlocks());
        long segmentEnd = Math.min(end, (segment + 1L) * file.segmentBlocks());
        long from = (first - (long) segment * file.segmentBlocks()) * PageHeader.BLCKSZ;
        long to = (segmentEnd - (long) segment * file.segmentBlocks()) * PageHeader.BLCKSZ;
        for (FileExtent e : extents(SegmentedFile.segmentPath(file.relpath(), segment))) {
          long overlap = Math.min(to, e.offset() + e.length()) - Math.max(from, e.offset());
          if (overlap > 0) {
            for (String host : e.hosts()) {
              bytes.merge(host, overlap, Long::sum);
            }
          }
        }
        first = segmentEnd;
      }
    }
    return bytes;
  }

  private List<FileExtent> extents(String path) throws IOException {
    List<FileExtent> known = extents.get(path);
    if (known == null) {
      known = files.extents(path);
      extents.put(path, known);
    }
    return known;
  }
}
