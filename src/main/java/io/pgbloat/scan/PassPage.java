package io.pgbloat.scan;

import io.pgbloat.page.BtreePageStats;
import io.pgbloat.page.HeapPageStats;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexPageStats;
import io.pgbloat.xact.TupleOutcomeKey;

/**
 * One page of a compressed backup as a worker of the pass counted it ({@link PassPageCounter}),
 * nothing of its file known: what {@link IndexingPassCounter} then adds to the file's counts, in
 * the file's order. {@code outcome} is {@link FileCounts#CHECKSUM_MATCHED} or
 * {@link FileCounts#CHECKSUM_MISMATCHED}, {@code computed} the checksum the page should carry;
 * stats are per free-space rule, by {@link io.pgbloat.page.FreeSpaceRule#ordinal()}.
 */
sealed interface PassPage {
  /** An all-zero page: kept by its number. */
  record Zero() implements PassPage {}

  /** A page of no kind the pass counts (new but not all zero, or a special space of no method): held whole. */
  record Unknown() implements PassPage {}

  /**
   * A page of a kind (a table's, {@code method} null, or an index's) that no count without the
   * cluster's rules settles: bad as read, or with undecided tuples of two keys. Held whole.
   */
  record Unsettled(IndexAccessMethod method) implements PassPage {}

  /**
   * A table's page: {@code live} its stats with the undecided tuples of {@code key} live, and
   * when there is such a key, {@code dead} as if they were dead and {@code keyTuples} how many
   * they are ({@code key} and {@code dead} null, {@code keyTuples} 0, when its hint bits
   * decided every tuple).
   */
  record Table(int outcome, int computed, HeapPageStats[] live, TupleOutcomeKey key, HeapPageStats[] dead,
      long keyTuples) implements PassPage {}

  /** A btree's page. */
  record Btree(int outcome, int computed, BtreePageStats[] byRule) implements PassPage {}

  /** A page of another index method. */
  record OtherIndex(IndexAccessMethod method, int outcome, int computed, IndexPageStats[] byRule) implements PassPage {}
}
