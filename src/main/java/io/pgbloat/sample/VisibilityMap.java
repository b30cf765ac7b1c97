package io.pgbloat.sample;

import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.Fork;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.page.PageVerifier;
import io.pgbloat.page.VisibilityMapPage;
import java.io.IOException;
import java.util.List;

/**
 * Reads a relation's visibility map fork into the list of its all-visible heap blocks. The
 * map is small (one page per 32672 heap blocks, 255 MB of heap), so the driver reads it whole.
 * A missing fork, a missing page or a page that fails its checks marks nothing all-visible:
 * the strata stay a partition of the blocks, so the estimate stays unbiased either way.
 */
public final class VisibilityMap {
  private VisibilityMap() {}

  /**
   * The all-visible blocks among heap blocks {@code 0 .. heapBlocks - 1}.
   *
   * @param problems receives a line for each map page that could not be used
   */
  public static BlockList allVisible(FileStore files, String relpath, int segmentBlocks, long heapBlocks,
      boolean dataChecksums, List<String> problems) throws IOException {
    BlockList.Builder visible = new BlockList.Builder();
    SegmentedFile.Measured measured = SegmentedFile.measure(files, Fork.VISIBILITY_MAP.path(relpath), segmentBlocks);
    SegmentedFile fork = measured.file();
    if (fork.blocks() == 0) {
      return visible.build(); // never vacuumed: no map, nothing all-visible
    }
    PageVerifier verifier = new PageVerifier(dataChecksums);
    long mapBlocks = Math.min(fork.blocks(), VisibilityMapPage.mapBlock(heapBlocks - 1) + 1);
    try {
      readMap(files, relpath, heapBlocks, fork, mapBlocks, verifier, visible, problems);
    } finally {
      fork.release(files); // the planner reads every sampled relation's map: keep none open
    }
    return visible.build();
  }

  private static void readMap(FileStore files, String relpath, long heapBlocks, SegmentedFile fork, long mapBlocks,
      PageVerifier verifier, BlockList.Builder visible, List<String> problems) throws IOException {
    fork.readInOrder(files, mapBlocks, (mapBlock, page) -> {
      String insane = verifier.check(page, mapBlock);
      if (insane != null) {
        problems.add("visibility map " + Fork.VISIBILITY_MAP.path(relpath) + " block " + mapBlock + ": " + insane
            + "; its heap blocks are sampled as not all-visible");
        return;
      }
      long first = mapBlock * VisibilityMapPage.HEAPBLOCKS_PER_PAGE;
      long last = Math.min(heapBlocks, first + VisibilityMapPage.HEAPBLOCKS_PER_PAGE);
      for (long block = first; block < last; block++) {
        if ((VisibilityMapPage.bits(page, block) & VisibilityMapPage.VISIBILITYMAP_ALL_VISIBLE) != 0) {
          visible.add(block);
        }
      }
    });
  }
}
