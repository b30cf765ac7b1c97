package io.pgbloat.stats;

import io.pgbloat.page.HeapPageStats;
import java.util.function.ToIntFunction;

/** A per-page figure that is summed over a relation's pages. */
public enum Measure {
  TUPLE_COUNT(HeapPageStats::tupleCount, false),
  TUPLE_LEN(HeapPageStats::tupleLen, true),
  DEAD_TUPLE_COUNT(HeapPageStats::deadTupleCount, false),
  DEAD_TUPLE_LEN(HeapPageStats::deadTupleLen, true),
  FREE_SPACE(HeapPageStats::freeSpace, true),
  /**
   * Dead tuple bytes plus free space, page by page: summed as one measure, its Σy² holds the
   * cross products of the two, so the interval of the total keeps their covariance.
   */
  WASTED_BYTES(p -> p.deadTupleLen() + p.freeSpace(), true),
  LP_UNUSED(HeapPageStats::lpUnused, false),
  LP_NORMAL(HeapPageStats::lpNormal, false),
  LP_REDIRECT(HeapPageStats::lpRedirect, false),
  LP_DEAD(HeapPageStats::lpDead, false),
  /** The line pointers an index entry points to ({@link HeapPageStats#indexedPointers}). */
  INDEXED_POINTERS(HeapPageStats::indexedPointers, false),
  /** Dead rows an index entry points to ({@link HeapPageStats#deadRoots}). */
  DEAD_ROOTS(HeapPageStats::deadRoots, false),
  /** Those of them deleted rather than updated ({@link HeapPageStats#deletedRoots}). */
  DELETED_ROOTS(HeapPageStats::deletedRoots, false),
  /** Σ (MAXALIGN(lp_len) + sizeof(ItemIdData)) of the live tuples: what a rewrite packs. */
  LIVE_ITEM_BYTES(HeapPageStats::liveItemBytes, true),
  /** Σ of the same items' squares, in BLCKSZ bytes²: their spread, for the packing model. */
  LIVE_ITEM_SQUARES(HeapPageStats::liveItemSquares, false),
  /** In a TOAST table: live full chunks (t_len EXTERN_TUPLE_MAX_SIZE). */
  TOAST_FULL_CHUNKS(p -> p.liveToastChunks().full(), false),
  /** In a TOAST table: live short chunks of chunk_seq 0, values of one chunk. */
  TOAST_LAST_OF_ONE(p -> p.liveToastChunks().lastOfOne(), false),
  /** In a TOAST table: live short chunks of chunk_seq 1, values of two chunks. */
  TOAST_LAST_OF_TWO(p -> p.liveToastChunks().lastOfTwo(), false),
  /** In a TOAST table: live short chunks of chunk_seq 2, values of three chunks. */
  TOAST_LAST_OF_THREE(p -> p.liveToastChunks().lastOfThree(), false);

  private final ToIntFunction<HeapPageStats> value;
  private final boolean bytes;

  Measure(ToIntFunction<HeapPageStats> value, boolean bytes) {
    this.value = value;
    this.bytes = bytes;
  }

  /** Whether the measure counts dead tuples, of which an all-visible page has none. */
  public boolean isDead() {
    return this == DEAD_TUPLE_COUNT || this == DEAD_TUPLE_LEN;
  }

  /** Whether the measure counts bytes (else items). */
  public boolean isBytes() {
    return bytes;
  }

  int of(HeapPageStats page) {
    return value.applyAsInt(page);
  }
}
