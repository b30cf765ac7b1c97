package io.pgbloat.pass;

import io.pgbloat.io.read.BlockList;
import io.pgbloat.page.FreeSpaceRule;
import io.pgbloat.page.HeapPageStats;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexPageStats;
import io.pgbloat.sample.Stratum;
import io.pgbloat.stats.DeadFractionHistogram;
import io.pgbloat.stats.IndexPageSums;
import io.pgbloat.stats.StratifiedSums;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One segment file of a relation's main fork as {@link IndexingPassCounter} counted it, before
 * the cluster's rules were known, so in every form they may take:
 * <ul>
 *   <li>summed under each version's free-space rule ({@link FreeSpaceRule}: PG_VERSION may come
 *       after the file);
 *   <li>the pages whose checksum matched apart from those whose did not (whether the cluster
 *       has checksums is in pg_control, which pg_basebackup sends last): the latter are
 *       counted if it has none and bad if it has;
 *   <li>a table's page whose undecided tuples (only the commit log decides them) share one
 *       key summed both as if they were live and as if dead, by key;
 *   <li>the pages no such count settles held whole, to be counted once everything is known:
 *       undecided tuples of two keys, a page that is bad or not of the file's kind; all-zero
 *       pages by their number alone, mismatched checksums by their numbers and values.
 * </ul>
 * The file's kind is what its first sound page's special space says ({@link
 * io.pgbloat.page.SpecialSpace}); the relation's catalog entry must agree for the counts to be
 * used.
 */
final class FileCounts {
  static final int CHECKSUM_MATCHED = 0;
  static final int CHECKSUM_MISMATCHED = 1;
  private static final int RULES = FreeSpaceRule.values().length;

  /** The segment's number: its pages are blocks {@link #firstBlock} + page. */
  final int segment;
  /** Pages read: every whole page of the file. */
  int pages;
  /** Whether the first sound page set the kind: {@link #heap}, else {@link #method}. */
  boolean kindKnown;
  boolean heap;
  IndexAccessMethod method;
  /** The summed pages whose checksum did not match, by page number: bad pages if the cluster has checksums. */
  final BlockList.Builder mismatched = new BlockList.Builder();
  /** The first of them (a range's findings), with both checksums: their findings' reasons. */
  final List<Mismatch> mismatches = new ArrayList<>();
  /** A table's pages whose tuples the hint bits decided. */
  final HeapSums heapSums = new HeapSums();
  /**
   * A table's pages whose undecided tuples share one {@link TupleOutcomeKey}, by key: summed as
   * if they were live, and as if they were dead.
   */
  final Map<TupleOutcomeKey, Assumed> assumed = new HashMap<>();
  /** Per checksum outcome and free-space rule: the sums of an index's pages. */
  final IndexPageSums[][] pageSums = new IndexPageSums[2][RULES];
  /** An index's block 0 when it was summed: its metapage. */
  byte[] metapage;
  /** Pages held whole, by page number, in file order. */
  final Map<Integer, byte[]> held = new LinkedHashMap<>();
  /** All-zero pages, by page number. */
  final BlockList.Builder zeroPages = new BlockList.Builder();
  /** Bytes held in memory for the file: its sums, its metapage, its pages held and its keys' sums. */
  long heldBytes;

  /** A summed page whose checksum did not match: its number, the checksum it carries, the one computed. */
  record Mismatch(int page, int actual, int expected) {}

  FileCounts(int segment) {
    this.segment = segment;
  }

  /** The relation's block number of the file's first page. */
  long firstBlock() {
    return (long) segment * IndexingPassCounter.SEGMENT_BLOCKS;
  }

  /** Whether a sound page of a heap ({@code method} null) or of {@code method} is of this file's kind; the first sets it. */
  boolean isOfKind(boolean heapPage, IndexAccessMethod pageMethod) {
    if (!kindKnown) {
      kindKnown = true;
      heap = heapPage;
      method = pageMethod;
    }
    return heap == heapPage && method == pageMethod;
  }

  /** Whether the file may be a heap's ({@code method} null) or an index's of {@code method}. */
  boolean mayBe(IndexAccessMethod relationMethod) {
    return !kindKnown || (relationMethod == null ? heap : !heap && method == relationMethod);
  }

  /** Table pages summed per checksum outcome and free-space rule, and their dead-fraction bins. */
  static final class HeapSums {
    final StratifiedSums[][] sums = new StratifiedSums[2][RULES];
    final long[][] bins = new long[2][];

    /** A table's page, {@code byRule} its stats under each free-space rule. */
    void add(int checksum, HeapPageStats[] byRule) {
      for (int r = 0; r < RULES; r++) {
        if (sums[checksum][r] == null) {
          sums[checksum][r] = new StratifiedSums();
        }
        sums[checksum][r].add(Stratum.TAKE_ALL, byRule[r]);
      }
      if (bins[checksum] == null) {
        bins[checksum] = new long[DeadFractionHistogram.BINS];
      }
      bins[checksum][DeadFractionHistogram.binOfDeadBytes(byRule[0].deadTupleLen())]++;
    }
  }

  /** The pages of one undecided key: summed as if its tuples were live, and as if dead; how many they are. */
  static final class Assumed {
    final HeapSums live = new HeapSums();
    final HeapSums dead = new HeapSums();
    /** Per checksum outcome, the key's tuples on the pages summed. */
    final long[] tuples = new long[2];
  }

  /** An index's page under each free-space rule. */
  void addPage(int checksum, IndexPageStats[] byRule) {
    for (int r = 0; r < RULES; r++) {
      if (pageSums[checksum][r] == null) {
        pageSums[checksum][r] = new IndexPageSums(method);
      }
      pageSums[checksum][r].add(byRule[r], true);
    }
  }

}
