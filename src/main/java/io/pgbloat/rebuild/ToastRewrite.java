package io.pgbloat.rebuild;

import io.pgbloat.page.HeapPage;
import io.pgbloat.page.HeapPageStats;
import io.pgbloat.page.HeapTupleHeader;
import io.pgbloat.page.PageHeader;
import io.pgbloat.page.ToastChunks;
import io.pgbloat.stats.Measure;
import java.util.SplittableRandom;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * The pages a rewrite writes for a TOAST table, whose chunks are not the independent draws
 * {@link TableRewrite} assumes. toast_save_datum ({@code src/backend/access/common/toast_internals.c})
 * cuts every value into chunks of TOAST_MAX_CHUNK_SIZE bytes and a shorter last one, and
 * inserts them one after the other, so the stream the rewrite packs is runs of full chunks
 * (t_len EXTERN_TUPLE_MAX_SIZE, exactly four to a page, 24 bytes to spare), each closed by one
 * short chunk. A short chunk followed by a run cannot share its page with a fourth full chunk,
 * so it costs a quarter page whatever its size; short chunks of one-chunk values pack together
 * like ordinary tuples. Taken as independent draws, as {@link TableRewrite} takes a heap's
 * tuples, the same chunks model too many pages.
 *
 * <p>So the stream is rebuilt and replayed. From the sums: the number of values m (one short
 * chunk each), how many of them have zero, one and two full chunks (a short chunk's chunk_seq,
 * counted per page in {@link io.pgbloat.page.ToastChunks}), the full chunks of the rest, and
 * the short chunks' mean and variance. m synthetic values (at most {@link #MAX_REPLAYED_VALUES},
 * scaled up beyond) get exactly those counts, the longer ones sharing their full chunks evenly,
 * and short chunks at evenly spaced quantiles of the normal distribution of that mean and
 * variance; both lists are shuffled (a fixed seed: the same sums give the same pages) and packed
 * next-fit at fillfactor 100 (heap_reloptions fixes it for TOAST tables), as raw_heap_insert and
 * RelationGetBufferForTuple ({@code src/backend/access/heap/hio.c}, HEAP_INSERT_SKIP_FSM: the
 * last page or a new one) do. Counts rather than random draws, because a draw of each value's
 * length adds noise of its own.
 *
 * <p>How close it comes to a real VACUUM FULL and to a replay of synthetic streams is measured
 * in docs/accuracy.md ("What a rewrite would reclaim"); {@code SampleTablesRewriteTest} checks
 * the sample's TOAST tables.
 */
public final class ToastRewrite {
  /** Values replayed at most; a larger table's pages are scaled from this many. */
  static final int MAX_REPLAYED_VALUES = 20_000;
  /** Fixed seed of the synthetic short chunks: any fixed value; this one is "TOAST" in ASCII. */
  private static final long SEED = 0x544F415354L;
  /** A full chunk's item: EXTERN_TUPLE_MAX_SIZE (2032) + sizeof(ItemIdData). */
  static final int FULL_CHUNK_ITEM = HeapPageStats.itemBytes(ToastChunks.EXTERN_TUPLE_MAX_SIZE);
  /**
   * The smallest short chunk's item: the MAXALIGNed header, chunk_id (oid), chunk_seq (int4),
   * the 4-byte varlena header of chunk_data (its storage is plain) and one byte of data.
   */
  static final int SMALLEST_CHUNK_ITEM = HeapPageStats.itemBytes(
      PageHeader.maxAlign(HeapTupleHeader.SIZEOF_HEAP_TUPLE_HEADER) + 4 + 4 + 4 + 1);

  private ToastRewrite() {}

  /**
   * @param chunks live chunks (n)
   * @param toast the live chunks by kind ({@link Measure#TOAST_FULL_CHUNKS} and the short chunks
   *     of one-, two- and three-chunk values), as totals
   * @param itemBytes Σ of all live chunks' items (bytes)
   * @param itemSquares Σ of their squares (bytes²)
   * @param squaresRounding how far rounding may have moved {@code itemSquares} (bytes²)
   */
  static double pages(double chunks, ChunkTotals toast, double itemBytes, double itemSquares,
      double squaresRounding) {
    if (chunks <= 0) {
      return 0.0;
    }
    int capacity = TableRewrite.pageCapacity(100);
    double fullChunks = toast.full();
    double values = chunks - fullChunks;
    if (values < 0.5) {
      return Math.ceil(fullChunks / Math.min(capacity / FULL_CHUNK_ITEM, HeapPage.MAX_HEAP_TUPLES_PER_PAGE) - 1e-9);
    }
    double mean = (itemBytes - fullChunks * FULL_CHUNK_ITEM) / values;
    double variance = (itemSquares - fullChunks * (double) FULL_CHUNK_ITEM * FULL_CHUNK_ITEM) / values - mean * mean;
    double sd = variance <= squaresRounding / values ? 0.0 : Math.sqrt(variance);
    int replayed = (int) Math.min(Math.round(values), MAX_REPLAYED_VALUES);
    long[] runs = runs(replayed, values, toast);
    long[] lasts = lastChunks(replayed, mean, sd);
    SplittableRandom random = new SplittableRandom(SEED);
    shuffle(runs, random);
    shuffle(lasts, random);
    long pages = 0;
    long used = 0;
    int onPage = 0;
    for (int v = 0; v < replayed; v++) {
      for (long c = 0; c <= runs[v]; c++) {
        long item = c < runs[v] ? FULL_CHUNK_ITEM : lasts[v];
        if (pages == 0 || used + item > capacity || onPage >= HeapPage.MAX_HEAP_TUPLES_PER_PAGE) {
          pages++;
          used = 0;
          onPage = 0;
        }
        used += item;
        onPage++;
      }
    }
    if (replayed == Math.round(values)) {
      return pages;
    }
    // scaled: the last page counted by its fill, so the part replayed is not rounded up
    double partial = pages - 1 + (double) used / capacity;
    return Math.ceil(partial * values / replayed - 1e-9);
  }

  /**
   * The full chunks of {@code replayed} synthetic values, in the measured proportions: values
   * of one, two and three chunks as counted, the rest sharing the full chunks left over as
   * evenly as whole numbers allow. A sample's counts need not agree (fewer full chunks left
   * than three to each longer value): the full chunks are still shared as counted, never made up,
   * so that the replay holds the chunks estimated and a sample's noise in the mix does not turn
   * into pages that are not there. Counts, not draws, so that the
   * synthetic table has the real one's chunks, and its pages no noise of their own.
   */
  private static long[] runs(int replayed, double values, ChunkTotals toast) {
    double scale = replayed / values;
    long[] runs = new long[replayed];
    int[] ofLength = {
        (int) Math.round(toast.lastOfOne() * scale),
        (int) Math.round(toast.lastOfTwo() * scale),
        (int) Math.round(toast.lastOfThree() * scale)};
    int v = 0;
    for (int c = 0; c < ofLength.length; c++) {
      for (int i = 0; i < ofLength[c] && v < replayed; i++) {
        runs[v++] = c;
      }
    }
    int longer = replayed - v;
    double longerFull = (toast.full() - toast.lastOfTwo() - 2 * toast.lastOfThree()) * scale;
    long total = Math.max(0, Math.round(longerFull));
    for (int i = 0; i < longer; i++) {
      // the i-th share of total, by whole chunks: floor((i+1)·total/longer) − floor(i·total/longer)
      runs[v++] = (i + 1) * total / longer - i * total / longer;
    }
    return runs;
  }

  /**
   * The items of {@code replayed} short chunks: the normal distribution of the measured mean
   * and standard deviation at evenly spaced quantiles, on the lattice of chunk items (4 more
   * than a multiple of MAXIMUM_ALIGNOF) and within the sizes a short chunk can have.
   */
  private static long[] lastChunks(int replayed, double mean, double sd) {
    NormalDistribution shortChunk = sd > 0 ? new NormalDistribution(null, mean, sd) : null;
    long[] lasts = new long[replayed];
    for (int i = 0; i < replayed; i++) {
      double drawn = shortChunk == null ? mean : shortChunk.inverseCumulativeProbability((i + 0.5) / replayed);
      long last = Math.round((drawn - 4) / 8) * 8 + 4;
      lasts[i] = Math.max(SMALLEST_CHUNK_ITEM, Math.min(FULL_CHUNK_ITEM, last));
    }
    return lasts;
  }

  /** Fisher-Yates: the synthetic values in a random order, as a table's rows come. */
  private static void shuffle(long[] a, SplittableRandom random) {
    for (int i = a.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      long t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }

  /** A TOAST table's live chunks by kind, as (estimated) totals. */
  public record ChunkTotals(double full, double lastOfOne, double lastOfTwo, double lastOfThree) {}
}
