package io.pgbloat.scan;

import io.pgbloat.page.BtreePage;
import io.pgbloat.page.BtreePageStats;
import io.pgbloat.page.FreeSpaceRule;
import io.pgbloat.page.HeapPage;
import io.pgbloat.page.HeapPageStats;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexPageCounter;
import io.pgbloat.page.IndexPageStats;
import io.pgbloat.page.PageChecksum;
import io.pgbloat.page.PageHeader;
import io.pgbloat.page.PageRules;
import io.pgbloat.page.SpecialSpace;
import io.pgbloat.xact.AssumedOutcome;
import io.pgbloat.xact.HintBitsOnly;
import io.pgbloat.xact.TupleOutcomeKey;
import java.util.EnumMap;
import java.util.Map;

/**
 * Counts one page of a compressed backup in every form the cluster's rules could take, with
 * nothing of its file: each checksum outcome apart, each free-space rule, a table's undecided
 * tuples (of one key) as live and as dead. What a worker of the pass does; one instance serves
 * one thread (its counters reuse scratch space).
 */
final class PassPageCounter {
  private static final FreeSpaceRule[] RULES = FreeSpaceRule.values();

  private final PageChecksum checksum = new PageChecksum();
  /**
   * Table pages counted without their checksum (checked apart), tuples by their hint bits, and
   * TOAST chunks on every table's pages (which tables are TOAST tables is not known yet; a plain
   * table's chunk figures are never read); the free space then measured by each rule.
   */
  private final AssumedOutcome assumed = new AssumedOutcome();
  private final HeapPage heapPage = new HeapPage(rulesOf(FreeSpaceRule.EXACT), assumed, true);
  /** Btree pages counted without their checksum, the free space then measured by each rule. */
  private final BtreePage btreePage = new BtreePage(rulesOf(FreeSpaceRule.EXACT));
  /** Per free-space rule, pages of the other index methods counted without their checksum. */
  private final Map<IndexAccessMethod, IndexPageCounter[]> indexCounters = new EnumMap<>(IndexAccessMethod.class);

  private static PageRules rulesOf(FreeSpaceRule rule) {
    return new PageRules(false, rule); // checksums are checked apart, both outcomes kept
  }

  /** Counts {@code page}, block {@code block} of its relation fork. */
  PassPage count(byte[] page, long block) {
    if (PageHeader.isNew(page)) {
      return PageHeader.isAllZero(page) ? new PassPage.Zero() : new PassPage.Unknown();
    }
    boolean heap = SpecialSpace.isHeap(page);
    IndexAccessMethod method = heap ? null : SpecialSpace.indexMethod(page);
    if (!heap && method == null) {
      return new PassPage.Unknown();
    }
    int computed = checksum.of(page, block);
    int outcome = computed == PageHeader.checksum(page) ? FileCounts.CHECKSUM_MATCHED
        : FileCounts.CHECKSUM_MISMATCHED;
    return heap ? countTable(page, block, outcome, computed)
        : method == IndexAccessMethod.BTREE ? countBtree(page, block, outcome, computed)
        : countIndex(page, block, outcome, computed, method);
  }

  /** A table page, as if its undecided tuples (of one key) were live and as if dead. */
  private PassPage countTable(byte[] page, long block, int outcome, int computed) {
    HeapPageStats live;
    try {
      assumed.assume(true);
      live = heapPage.count(page, block);
    } catch (HintBitsOnly.OutcomeNotYetKnown e) {
      return new PassPage.Unsettled(null); // undecided tuples of two keys
    }
    if (live.isBad()) {
      return new PassPage.Unsettled(null);
    }
    TupleOutcomeKey key = assumed.key();
    if (key == null) {
      return new PassPage.Table(outcome, computed, byRule(live, page), null, null, 0);
    }
    assumed.assume(false);
    HeapPageStats dead = heapPage.count(page, block); // the same tuples of the same key
    return new PassPage.Table(outcome, computed, byRule(live, page), key, byRule(dead, page),
        live.tupleCount() - dead.tupleCount());
  }

  /** A btree page, its free space measured by each rule. */
  private PassPage countBtree(byte[] page, long block, int outcome, int computed) {
    BtreePageStats stats = btreePage.count(page, block);
    if (stats.isBad()) {
      return new PassPage.Unsettled(IndexAccessMethod.BTREE);
    }
    BtreePageStats[] byRule = new BtreePageStats[RULES.length];
    for (FreeSpaceRule rule : RULES) {
      byRule[rule.ordinal()] = stats.withFreeSpace(rule.indexPage(page));
    }
    return new PassPage.Btree(outcome, computed, byRule);
  }

  /** A page of another index method, counted under each free-space rule. */
  private PassPage countIndex(byte[] page, long block, int outcome, int computed, IndexAccessMethod method) {
    IndexPageCounter[] counters = indexCounters.computeIfAbsent(method, m -> {
      IndexPageCounter[] byRule = new IndexPageCounter[RULES.length];
      for (FreeSpaceRule rule : RULES) {
        byRule[rule.ordinal()] = m.counter(rulesOf(rule));
      }
      return byRule;
    });
    IndexPageStats[] byRule = new IndexPageStats[counters.length];
    for (int r = 0; r < byRule.length; r++) {
      byRule[r] = counters[r].count(page, block);
      if (byRule[r].isBad()) {
        return new PassPage.Unsettled(method);
      }
    }
    return new PassPage.OtherIndex(method, outcome, computed, byRule);
  }

  /** A table page's stats under each free-space rule. */
  private static HeapPageStats[] byRule(HeapPageStats stats, byte[] page) {
    HeapPageStats[] byRule = new HeapPageStats[RULES.length];
    for (FreeSpaceRule rule : RULES) {
      byRule[rule.ordinal()] = stats.withFreeSpace(rule.heapPage(page, PageHeader.maxOffsetNumber(page)));
    }
    return byRule;
  }
}
