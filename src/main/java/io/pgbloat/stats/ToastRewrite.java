package io.pgbloat.stats;

import io.pgbloat.page.HeapPage;
import io.pgbloat.page.HeapPageStats;
import io.pgbloat.page.HeapTupleHeader;
import io.pgbloat.page.PageHeader;
import io.pgbloat.page.ToastChunks;
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
 * like ordinary tuples. Treated as independent, the same sizes pack several per cent tighter
 * than they do (measured on the sample's pg_rewrite TOAST table: 69 pages against 64).
 *
 * <p>So the stream is rebuilt and replayed: from the sums, the number of values m (one short
 * chunk each), their full chunks f, and the short chunks' mean and variance; m synthetic values
 * (at most {@link #MAX_REPLAYED_VALUES}, scaled up beyond) get ⌊f/m⌋ or ⌈f/m⌉ full chunks,
 * mixed in the proportion that gives f, and a short chunk drawn from the normal distribution
 * of that mean and variance, within the sizes a short chunk can have; then they are packed
 * next-fit at fillfactor 100 (heap_reloptions fixes it for TOAST tables), as raw_heap_insert
 * and RelationGetBufferForTuple do. The draws come from a fixed seed: the same sums give the
 * same pages.
 */
final class ToastRewrite {
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
    int capacity = TableRewrite.pageCapacity(100);
    double fullChunks = toast.full();
    double values = chunks - fullChunks;
    if (values < 0.5) {
      return Math.ceil(fullChunks / Math.min(capacity / FULL_CHUNK_ITEM, HeapPage.MAX_HEAP_TUPLES_PER_PAGE) - 1e-9);
    }
    double mean = (itemBytes - fullChunks * FULL_CHUNK_ITEM) / values;
    double variance = (itemSquares - fullChunks * (double) FULL_CHUNK_ITEM * FULL_CHUNK_ITEM) / values - mean * mean;
    double sd = variance <= squaresRounding / values ? 0.0 : Math.sqrt(variance);
    // values of one, two, three chunks, and the rest with the full chunks left over
    double[] share = {toast.lastOfOne() / values, toast.lastOfTwo() / values, toast.lastOfThree() / values};
    double longer = Math.max(0.0, values - toast.lastOfOne() - toast.lastOfTwo() - toast.lastOfThree());
    double longerRun = longer < 0.5 ? 3
        : Math.max(3.0, (fullChunks - toast.lastOfTwo() - 2 * toast.lastOfThree()) / longer);
    long lowRun = (long) Math.floor(longerRun);

    long replayed = Math.min(Math.round(values), MAX_REPLAYED_VALUES);
    SplittableRandom random = new SplittableRandom(SEED);
    NormalDistribution shortChunk = sd > 0 ? new NormalDistribution(null, mean, sd) : null;
    long pages = 0;
    long used = 0;
    int onPage = 0;
    for (long v = 0; v < replayed; v++) {
      long run = run(random.nextDouble(), share, lowRun, longerRun - lowRun, random);
      double drawn = shortChunk == null ? mean : shortChunk.inverseCumulativeProbability(random.nextDouble());
      // a chunk item is 4 more than a multiple of MAXIMUM_ALIGNOF, and between the bounds
      long last = Math.round((drawn - 4) / 8) * 8 + 4;
      last = Math.max(SMALLEST_CHUNK_ITEM, Math.min(FULL_CHUNK_ITEM, last));
      for (long c = 0; c <= run; c++) {
        long item = c < run ? FULL_CHUNK_ITEM : last;
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

  /** The full chunks of one synthetic value: its class by {@code u}, then its run. */
  private static long run(double u, double[] share, long lowRun, double longerShare, SplittableRandom random) {
    double below = 0;
    for (int c = 0; c < share.length; c++) {
      below += share[c];
      if (u < below) {
        return c;
      }
    }
    return lowRun + (random.nextDouble() < longerShare ? 1 : 0);
  }

  /** A TOAST table's live chunks by kind, as (estimated) totals. */
  record ChunkTotals(double full, double lastOfOne, double lastOfTwo, double lastOfThree) {}
}
