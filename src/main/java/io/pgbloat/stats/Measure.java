package io.pgbloat.stats;

import io.pgbloat.page.HeapPageStats;
import java.util.function.ToIntFunction;

/** A per-page figure that is summed over a relation's pages. */
public enum Measure {
  TUPLE_COUNT(HeapPageStats::tupleCount),
  TUPLE_LEN(HeapPageStats::tupleLen),
  DEAD_TUPLE_COUNT(HeapPageStats::deadTupleCount),
  DEAD_TUPLE_LEN(HeapPageStats::deadTupleLen),
  FREE_SPACE(HeapPageStats::freeSpace),
  LP_UNUSED(HeapPageStats::lpUnused),
  LP_NORMAL(HeapPageStats::lpNormal),
  LP_REDIRECT(HeapPageStats::lpRedirect),
  LP_DEAD(HeapPageStats::lpDead);

  private final ToIntFunction<HeapPageStats> value;

  Measure(ToIntFunction<HeapPageStats> value) {
    this.value = value;
  }

  int of(HeapPageStats page) {
    return value.applyAsInt(page);
  }
}
