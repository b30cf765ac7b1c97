package io.pgbloat.pass;

import io.pgbloat.page.HeapTupleHeader;
import io.pgbloat.page.TupleVerdict;
import io.pgbloat.xact.DirtySnapshot;

/**
 * What {@link DirtySnapshot} decides a tuple on. Tuples of one key are live or dead together:
 * the rows one transaction inserted, say, before their hint bits are set.
 *
 * @param xmin t_xmin
 * @param xmax t_xmax
 * @param infomask the bits of t_infomask the rule reads ({@link DirtySnapshot#READ_BITS})
 * @param xvac t_xvac where HEAP_MOVED says it is one, else 0 ({@link #xvacRead})
 */
public record TupleOutcomeKey(int xmin, int xmax, int infomask, int xvac) {
  /** The t_xvac a key holds: the tuple's where HEAP_MOVED says it is one, else 0. */
  static int xvacRead(int infomask, int xvac) {
    return (infomask & HeapTupleHeader.HEAP_MOVED) != 0 ? xvac : 0;
  }

  /** What {@code visibility} says of a tuple of this key. */
  public TupleVerdict verdict(DirtySnapshot visibility) {
    return visibility.verdict(xmin, xmax, infomask, xvac);
  }
}
