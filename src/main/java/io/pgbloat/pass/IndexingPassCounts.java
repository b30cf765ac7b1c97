package io.pgbloat.pass;

import io.pgbloat.error.CommitStatusUnavailableException;
import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.ReadTotals;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.page.HeapPage;
import io.pgbloat.page.HeapPageStats;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexPageCounter;
import io.pgbloat.page.IndexPageStats;
import io.pgbloat.page.PageHeader;
import io.pgbloat.page.PageProblem;
import io.pgbloat.page.PageRules;
import io.pgbloat.page.PageVerifier;
import io.pgbloat.page.TupleVerdict;
import io.pgbloat.sample.RelationSlice;
import io.pgbloat.sample.Stratum;
import io.pgbloat.scan.IndexPageTally;
import io.pgbloat.scan.IndexRangeResult;
import io.pgbloat.scan.RangeResult;
import io.pgbloat.scan.TablePageTally;
import io.pgbloat.stats.DeadFractionHistogram;
import io.pgbloat.stats.IndexPageSums;
import io.pgbloat.stats.StratifiedSums;
import io.pgbloat.xact.ClusterTransactions;
import io.pgbloat.xact.DirtySnapshot;
import io.pgbloat.xact.TransactionStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongConsumer;

/**
 * What {@link IndexingPassCounter} counted of a backup's relation files, settled into the
 * results a task would have given once the cluster is known: its rules (checksums, the
 * version's free-space rule), its commit log, and which relation each file is. A relation is
 * settled when it is read whole and every one of its segment files was counted, of the kind
 * its catalog entry says; the pages held are counted then, as a task counts them. The pass
 * counts each tuple as stored, its table's columns unknown yet: a table with a dropped column,
 * whose values a rewrite drops, is left to a task; a value a rewrite would store with a shorter
 * header ({@link io.pgbloat.page.TableColumns}) is taken as it is.
 */
public final class IndexingPassCounts {
  /** The reason of a bad page past the findings kept (never shown). */
  private static final String CHECKSUM_MISMATCH = "checksum mismatch";
  /** The checksum outcomes whose summed pages count: with checksums on, the matched; without, either. */
  private static final List<Integer> MATCHED_ONLY = List.of(FileCounts.CHECKSUM_MATCHED);
  private static final List<Integer> EITHER = List.of(FileCounts.CHECKSUM_MATCHED, FileCounts.CHECKSUM_MISMATCHED);

  private final Map<String, FileCounts> files;

  IndexingPassCounts(Map<String, FileCounts> files) {
    this.files = files;
  }

  /** Whether no file was counted: the data directory was no compressed backup. */
  public boolean isEmpty() {
    return files.isEmpty();
  }

  /**
   * What was settled: the relations (their index in the plan) and their counts in one result.
   *
   * @param <R> what a range yields
   */
  public record Settled<R>(Set<Integer> relations, R result) {
    /** No table settled. */
    public static final Settled<RangeResult> NO_TABLES = new Settled<>(Set.of(),
        new RangeResult(Map.of(), Map.of(), List.of(), ReadTotals.NONE));
    /** No index settled. */
    public static final Settled<IndexRangeResult> NO_INDEXES = new Settled<>(Set.of(),
        new IndexRangeResult(Map.of(), Map.of(), List.of(), ReadTotals.NONE));
  }

  /** The tables of {@code slices} (one a relation, all its blocks) the pass settled, with {@code store}'s commit log. */
  public Settled<RangeResult> tables(List<RelationSlice> slices, FileStore store, ClusterTransactions transactions,
      PageRules rules) {
    DirtySnapshot visibility = new DirtySnapshot(new TransactionStatus(store, transactions));
    HeapPage heapPage = new HeapPage(rules, visibility);
    HeapPage toastPage = new HeapPage(rules, visibility, true);
    TablePageTally tally = new TablePageTally();
    Set<Integer> settled = new HashSet<>();
    long blocks = 0;
    for (RelationSlice slice : slices) {
      if (slice.columns().hasDropped()) {
        continue; // the pass counted its tuples as stored: a task counts what a rewrite leaves of them
      }
      List<FileCounts> segments = segments(slice, null);
      Map<TupleOutcomeKey, TupleVerdict> decided = segments == null ? null : decide(segments, visibility);
      if (decided == null) {
        continue;
      }
      int r = slice.relation();
      HeapPage page = slice.toast() ? toastPage : heapPage;
      for (FileCounts c : segments) {
        addAll(tally, r, c.heapSums, rules);
        c.assumed.forEach((key, sums) -> {
          TupleVerdict d = decided.get(key);
          addAll(tally, r, d.isLive() ? sums.live : sums.dead, rules);
          if (d.withoutOutcome()) {
            long undecided = 0;
            for (int checksum : counted(rules)) {
              undecided += sums.tuples[checksum];
            }
            StratifiedSums tuples = new StratifiedSums();
            tuples.addWithoutOutcome(Stratum.TAKE_ALL, undecided);
            tally.addAll(r, tuples, new long[DeadFractionHistogram.BINS]);
          }
        });
        if (rules.dataChecksums()) {
          StratifiedSums bad = new StratifiedSums();
          forUnlisted(c, block -> bad.add(Stratum.TAKE_ALL, HeapPageStats.bad(new PageProblem(block, CHECKSUM_MISMATCH))));
          tally.addAll(r, bad, new long[DeadFractionHistogram.BINS]);
        }
        late(c, rules).forEach((number, late) -> {
          long block = c.firstBlock() + number;
          tally.add(r, block, Stratum.TAKE_ALL, late.page() != null ? page.count(late.page(), block)
              : HeapPageStats.bad(new PageProblem(block, late.bad())));
        });
        blocks += c.pages;
      }
      settled.add(r);
    }
    return new Settled<>(settled, tally.result(new ReadTotals(blocks, 0, 0)));
  }

  /**
   * The keys the segments' pages assumed, decided by {@code visibility}; null when the commit
   * log cannot decide one (a task then reads the relation and reports its pages as bad).
   */
  private static Map<TupleOutcomeKey, TupleVerdict> decide(List<FileCounts> segments, DirtySnapshot visibility) {
    Map<TupleOutcomeKey, TupleVerdict> decided = new HashMap<>();
    try {
      for (FileCounts c : segments) {
        for (TupleOutcomeKey key : c.assumed.keySet()) {
          decided.put(key, key.verdict(visibility));
        }
      }
    } catch (CommitStatusUnavailableException e) {
      return null;
    }
    return decided;
  }

  /**
   * The indexes of {@code slices} (one an index, all its blocks) the pass settled, {@code methods}
   * and {@code fillfactors} theirs by plan index. The pass counted a btree's leaves as a build at
   * the default fillfactor fills them: a btree of another fillfactor is left to a task.
   */
  public Settled<IndexRangeResult> indexes(List<RelationSlice> slices, List<IndexAccessMethod> methods,
      List<Integer> fillfactors, PageRules rules) {
    int rule = rules.freeSpace().ordinal();
    IndexPageTally tally = new IndexPageTally();
    Set<Integer> settled = new HashSet<>();
    long blocks = 0;
    for (RelationSlice slice : slices) {
      IndexAccessMethod method = methods.get(slice.relation());
      int fillfactor = fillfactors.get(slice.relation());
      boolean countedAsBuilt = method != IndexAccessMethod.BTREE || fillfactor == method.defaultFillfactor();
      List<FileCounts> segments = method == null || !countedAsBuilt ? null : segments(slice, method);
      if (segments == null) {
        continue;
      }
      int r = slice.relation();
      IndexPageCounter counter = method.counter(rules, fillfactor);
      for (FileCounts c : segments) {
        for (int checksum : counted(rules)) {
          if (c.pageSums[checksum][rule] != null) {
            tally.addAll(r, method, c.pageSums[checksum][rule]);
          }
        }
        if (rules.dataChecksums()) {
          IndexPageSums bad = new IndexPageSums(method);
          forUnlisted(c, block -> bad.add(IndexPageStats.bad(block, CHECKSUM_MISMATCH), true));
          tally.addAll(r, method, bad);
        }
        if (c.metapage != null && !(rules.dataChecksums() && c.mismatched.build().countBefore(1) > 0)) {
          tally.addMetapage(r, method, c.metapage); // a sound block 0's only
        }
        late(c, rules).forEach((number, late) -> {
          long block = c.firstBlock() + number;
          byte[] bytes = late.page();
          tally.add(r, method, bytes != null ? counter.count(bytes, block) : IndexPageStats.bad(block, late.bad()),
              bytes, true);
        });
        blocks += c.pages;
      }
      settled.add(r);
    }
    return new Settled<>(settled, tally.result(new ReadTotals(blocks, 0, 0)));
  }

  /**
   * The segment files of {@code slice}'s relation, a heap's ({@code method} null) or an index's
   * of {@code method}, if the pass settled them all; else null.
   */
  private List<FileCounts> segments(RelationSlice slice, IndexAccessMethod method) {
    SegmentedFile file = slice.file();
    int perSegment = IndexingPassCounter.SEGMENT_BLOCKS;
    if (slice.strata() != null || file.segmentBlocks() != perSegment
        || !slice.blocks().equals(BlockList.range(0, file.blocks()))) {
      return null; // a sample, or a cluster of another segment size
    }
    List<FileCounts> segments = new ArrayList<>();
    for (int s = 0; (long) s * perSegment < file.blocks(); s++) {
      FileCounts c = files.get(SegmentedFile.segmentPath(file.relpath(), s));
      if (c == null || c.pages != Math.min(perSegment, file.blocks() - (long) s * perSegment)
          || !c.mayBe(method)) {
        return null;
      }
      segments.add(c);
    }
    return segments;
  }

  /** A page counted as the relation is settled: its bytes to count, or (with a checksum that failed) why it is bad. */
  private record Late(byte[] page, String bad) {}

  /**
   * The pages of {@code c} counted as it is settled, in file order: those held, the all-zero
   * ones, and with checksums on, the first mismatched ones, bad with their reason.
   */
  private static TreeMap<Integer, Late> late(FileCounts c, PageRules rules) {
    TreeMap<Integer, Late> pages = new TreeMap<>();
    c.held.forEach((number, bytes) -> pages.put(number, new Late(bytes, null)));
    Late zero = new Late(new byte[PageHeader.BLCKSZ], null); // what every all-zero page reads as
    c.zeroPages.build().forEach(number -> pages.put((int) number, zero));
    if (rules.dataChecksums()) {
      for (FileCounts.Mismatch m : c.mismatches) {
        pages.put(m.page(), new Late(null, PageVerifier.checksumMismatch(m.actual(), m.expected())));
      }
    }
    return pages;
  }

  /**
   * With checksums on, the blocks of the summed pages whose checksum did not match beyond the
   * first ({@link #late}): bad pages past a range's findings, so their reason is never shown.
   */
  private static void forUnlisted(FileCounts c, LongConsumer bad) {
    Set<Integer> listed = new HashSet<>();
    c.mismatches.forEach(m -> listed.add(m.page()));
    c.mismatched.build().forEach(number -> {
      if (!listed.contains((int) number)) {
        bad.accept(c.firstBlock() + number);
      }
    });
  }

  /** The checksum outcomes whose summed pages count: with checksums on, the matched only. */
  private static List<Integer> counted(PageRules rules) {
    return rules.dataChecksums() ? MATCHED_ONLY : EITHER;
  }

  /** Adds a table's pages summed, those of the outcomes that count ({@link #counted}). */
  private static void addAll(TablePageTally tally, int relation, FileCounts.HeapSums sums, PageRules rules) {
    int rule = rules.freeSpace().ordinal();
    for (int checksum : counted(rules)) {
      if (sums.sums[checksum][rule] != null) {
        tally.addAll(relation, sums.sums[checksum][rule], sums.bins[checksum]);
      }
    }
  }
}
