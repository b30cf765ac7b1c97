package io.pgbloat.scan;

import io.pgbloat.io.BlockRead;
import io.pgbloat.io.BlockReader;
import io.pgbloat.io.FileStore;
import io.pgbloat.io.IoSettings;
import io.pgbloat.io.PrefetchStream;
import io.pgbloat.page.BtreeMeta;
import io.pgbloat.page.BtreeMetaPage;
import io.pgbloat.page.BtreePage;
import io.pgbloat.page.BtreePageStats;
import io.pgbloat.page.PageHeader;
import io.pgbloat.page.PageProblem;
import io.pgbloat.page.PageRules;
import io.pgbloat.sample.RelationSlice;
import io.pgbloat.sample.ScanRange;
import io.pgbloat.stats.BtreeSums;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts the btree pages of one {@link ScanRange} of index blocks, read through the same
 * prefetch streams as heap pages: each index's pages into its {@link BtreeSums}, its
 * metapage kept when block 0 is in the range. A block that cannot be read is a bad page.
 */
public final class IndexRangeScanner {
  private final FileStore files;
  private final IoSettings io;
  private final BtreePage btreePage;

  public IndexRangeScanner(FileStore files, PageRules rules, IoSettings io) {
    this.files = files;
    this.io = io;
    this.btreePage = new BtreePage(rules);
  }

  public IndexRangeResult scan(ScanRange range) {
    Map<Integer, BtreeSums> sums = new HashMap<>();
    Map<Integer, BtreeMeta> metas = new HashMap<>();
    List<PageFinding> findings = new ArrayList<>();
    byte[] page = new byte[PageHeader.BLCKSZ];
    try (BlockReader reader = new BlockReader(files, io)) {
      for (RelationSlice slice : range.slices()) {
        BtreeSums indexSums = sums.computeIfAbsent(slice.relation(), r -> new BtreeSums());
        PrefetchStream stream = reader.stream(slice.file(), slice.blocks());
        while (stream.hasNext()) {
          BlockRead read = stream.next();
          BtreePageStats stats;
          if (read.failure() != null) {
            stats = BtreePageStats.bad(new PageProblem(read.block(), read.failure()));
          } else {
            System.arraycopy(read.buffer(), read.offset(), page, 0, PageHeader.BLCKSZ);
            if (read.block() == BtreePage.BTREE_METAPAGE) {
              metas.put(slice.relation(), BtreeMetaPage.read(page, btreePage));
            }
            stats = btreePage.count(page, read.block());
          }
          indexSums.add(stats);
          if (stats.isBad() && findings.size() < RangeScanner.FINDINGS_PER_RANGE) {
            findings.add(new PageFinding(slice.relation(), read.block(), stats.problem().reason()));
          }
        }
        slice.file().release(files); // a range may cover many indexes: keep one open at a time
      }
      return new IndexRangeResult(sums, metas, findings, reader.counters().blocks(), reader.counters().reads());
    }
  }
}
