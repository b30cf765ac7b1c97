package io.pgbloat.scan;

import io.pgbloat.io.read.BlockRead;
import io.pgbloat.io.read.BlockReader;
import io.pgbloat.io.read.IoSettings;
import io.pgbloat.io.read.PrefetchStream;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexPageCounter;
import io.pgbloat.page.IndexPageStats;
import io.pgbloat.page.PageHeader;
import io.pgbloat.page.PageRules;
import io.pgbloat.sample.RelationSlice;
import io.pgbloat.sample.ScanRange;
import io.pgbloat.sample.Stratum;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts the index pages of one {@link ScanRange} of index blocks, read through the same
 * prefetch streams as heap pages: each index's pages by its method's {@link IndexPageCounter}
 * into its {@link io.pgbloat.stats.IndexPageSums}, and its metapage's figures when block 0 is in the
 * range. A block that cannot be read is a bad page.
 */
public final class IndexRangeScanner implements RangeCounter<IndexRangeResult> {
  private final FileStore files;
  private final IoSettings io;
  private final List<IndexAccessMethod> accessMethods;
  private final List<Integer> fillfactors;
  private final Map<CounterKind, IndexPageCounter> counters = new HashMap<>();
  private final PageRules rules;
  private final int chunkBlocks;

  /** What a page counter counts for: an access method, and the fillfactor a build fills its pages to. */
  private record CounterKind(IndexAccessMethod am, int fillfactor) {}

  /**
   * What an executor needs to count index ranges.
   *
   * @param accessMethods per index (by relation id), its access method (null for one not read)
   * @param fillfactors per index, its fillfactor
   * @param chunkBlocks the chunk length to keep sums by (0 for none)
   */
  public record Factory(PageRules rules, IoSettings io, ArrayList<IndexAccessMethod> accessMethods,
      ArrayList<Integer> fillfactors, int chunkBlocks) implements RangeCounter.Factory<IndexRangeResult> {
    @Override
    public RangeCounter<IndexRangeResult> on(FileStore files) {
      return new IndexRangeScanner(files, rules, io, accessMethods, fillfactors, chunkBlocks);
    }
  }

  /**
   * @param accessMethods per index (by relation id), its access method
   * @param fillfactors per index, its fillfactor
   */
  public IndexRangeScanner(FileStore files, PageRules rules, IoSettings io, List<IndexAccessMethod> accessMethods,
      List<Integer> fillfactors) {
    this(files, rules, io, accessMethods, fillfactors, 0);
  }

  /** A scanner that also keeps sums per chunk of {@code chunkBlocks} blocks (none when 0). */
  public IndexRangeScanner(FileStore files, PageRules rules, IoSettings io, List<IndexAccessMethod> accessMethods,
      List<Integer> fillfactors, int chunkBlocks) {
    this.chunkBlocks = chunkBlocks;
    this.files = files;
    this.io = io;
    this.rules = rules;
    this.accessMethods = new ArrayList<>(accessMethods); // null for a method that is not read
    this.fillfactors = List.copyOf(fillfactors);
  }

  @Override
  public IndexRangeResult count(ScanRange range) {
    IndexPageTally tally = new IndexPageTally(chunkBlocks);
    byte[] page = new byte[PageHeader.BLCKSZ];
    try (BlockReader reader = new BlockReader(files, io)) {
      for (RelationSlice slice : range.slices()) {
        IndexAccessMethod am = accessMethods.get(slice.relation());
        IndexPageCounter counter = counters.computeIfAbsent(new CounterKind(am, fillfactors.get(slice.relation())),
            k -> k.am().counter(rules, k.fillfactor()));
        PrefetchStream stream = reader.stream(slice.file(), slice.blocks());
        for (long position = 0; stream.hasNext(); position++) {
          BlockRead read = stream.next();
          byte[] bytes = null;
          if (read.failure() == null) {
            read.copyTo(page);
            bytes = page;
          }
          tally.add(slice.relation(), am, bytes == null ? IndexPageStats.bad(read.block(), read.failure())
              : counter.count(page, read.block()), bytes, slice.stratumAt(position) == Stratum.TAKE_ALL);
        }
        slice.file().release(files); // a range may cover many indexes: keep one open at a time
      }
      return tally.result(reader.totals());
    }
  }
}
