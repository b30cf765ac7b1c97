package io.pgbloat.pass;

import io.pgbloat.io.backup.RelationFileReader;
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
import io.pgbloat.scan.RangeScanner;
import java.io.IOException;
import java.io.InputStream;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

/**
 * Counts the pages of every relation file a compressed backup decodes while it is indexed, in
 * that one pass, so that a full scan decodes the backup once. Nothing of the cluster is known
 * yet (pg_basebackup sends the files in directory order and pg_control last), so each file is
 * counted in every form the cluster's rules could take ({@link FileCounts}), and what no
 * rule-free count settles is held until they are known. {@link #counts()} then settles the
 * relations the plan names ({@link IndexingPassCounts}).
 */
public final class IndexingPassCounter implements RelationFileReader {
  /**
   * The segment size counted with: RELSEG_SIZE as configure sets it by default (1 GB of 8 kB
   * blocks, {@code pg_config.h}), which gives each page its block number (checksums mix it in).
   * A cluster built with another leaves its files to the tasks.
   */
  static final int SEGMENT_BLOCKS = 131072;
  /**
   * What the pass may hold, as a share of the driver's heap: pages held whole, the sums of
   * files and keys. Past it, a file is left to a task.
   */
  private static final int HEAP_SHARE = 4;
  /** What the sums of one file take at most (under both rules, both checksum outcomes). */
  static final long FILE_SUMS_BYTES = 8 << 10;
  /** What the sums of one undecided key take at most. */
  private static final long ASSUMED_KEY_BYTES = 16 << 10;
  /** Pages of mismatched checksum kept with both checksums per file, at most: a range's findings. */
  private static final int MISMATCHES_KEPT = RangeScanner.FINDINGS_PER_RANGE;
  /** What an all-zero page's number takes at most, in runs of them (BlockList.Builder). */
  private static final long ZERO_PAGE_BYTES = Long.BYTES + Integer.BYTES;
  /** A segment's number after the relation file's name: "16384.2" is segment 2 (relpath.c). */
  private static final char SEGMENT_SEPARATOR = '.';

  private final long heldAtMost;
  private final Map<String, FileCounts> files = new HashMap<>();
  private final PageChecksum checksum = new PageChecksum();
  /**
   * Table pages counted without their checksum (checked apart), tuples by their hint bits, and
   * TOAST chunks on every table's pages (which tables are TOAST tables is not known yet; a plain
   * table's chunk figures are never read); the free space then measured by each rule.
   */
  private final AssumedOutcome assumed = new AssumedOutcome();
  private final HeapPage heapPage = new HeapPage(rulesOf(FreeSpaceRule.EXACT), assumed, true);
  /** Per free-space rule, index pages counted without their checksum. */
  private final Map<IndexAccessMethod, IndexPageCounter[]> indexCounters = new EnumMap<>(IndexAccessMethod.class);
  private long held;

  public IndexingPassCounter() {
    this(Runtime.getRuntime().maxMemory() / HEAP_SHARE);
  }

  /** @param heldAtMost the bytes of pages it may hold */
  IndexingPassCounter(long heldAtMost) {
    this.heldAtMost = heldAtMost;
  }

  private static PageRules rulesOf(FreeSpaceRule rule) {
    return new PageRules(false, rule); // checksums are checked apart, both outcomes kept
  }

  /** Counts the file at {@code path}; one it cannot settle is let go, and a task reads it. */
  @Override
  public void read(String path, InputStream bytes) throws IOException {
    int segment = segmentOf(path);
    FileCounts file = new FileCounts(segment);
    if (segment < 0 || !keep(file, () -> { }, FILE_SUMS_BYTES)) {
      return;
    }
    byte[] page = new byte[PageHeader.BLCKSZ];
    while (bytes.readNBytes(page, 0, page.length) == page.length) {
      if (!count(file, file.pages++, page)) {
        held -= file.heldBytes; // what it held is let go
        return;
      }
    }
    files.put(path, file);
  }

  /** The segment number a relation file's name ends in ("16384.2": 2; none: 0), or -1 if it is none. */
  private static int segmentOf(String path) {
    String name = path.substring(path.lastIndexOf('/') + 1);
    int dot = name.indexOf(SEGMENT_SEPARATOR);
    try {
      return dot < 0 ? 0 : Integer.parseInt(name.substring(dot + 1));
    } catch (NumberFormatException e) {
      return -1; // past 2^31: no segment PostgreSQL writes
    }
  }

  /** The counts, to settle the plan's relations with once the cluster is known. */
  public IndexingPassCounts counts() {
    return new IndexingPassCounts(files);
  }

  /** Counts or holds page {@code number} of {@code file}; false when the file cannot be settled. */
  private boolean count(FileCounts file, int number, byte[] page) {
    long block = file.firstBlock() + number;
    if (PageHeader.isNew(page)) {
      return PageHeader.isAllZero(page) ? keep(file, () -> file.zeroPages.add(number), ZERO_PAGE_BYTES)
          : hold(file, number, page);
    }
    boolean heap = SpecialSpace.isHeap(page);
    IndexAccessMethod method = heap ? null : SpecialSpace.indexMethod(page);
    if ((!heap && method == null) || !file.isOfKind(heap, method)) {
      return hold(file, number, page);
    }
    int computed = checksum.of(page, block);
    int outcome = computed == PageHeader.checksum(page) ? FileCounts.CHECKSUM_MATCHED
        : FileCounts.CHECKSUM_MISMATCHED;
    Fate fate = heap ? countHeap(file, number, page, block, outcome)
        : countIndex(file, number, page, block, outcome, method);
    if (fate != Fate.SUMMED) {
      return fate == Fate.HELD;
    }
    if (!heap && block == 0 && !keep(file, () -> file.metapage = page.clone(), PageHeader.BLCKSZ)) {
      return false;
    }
    if (outcome == FileCounts.CHECKSUM_MISMATCHED) {
      file.mismatched.add(number);
      if (file.mismatches.size() < MISMATCHES_KEPT) {
        file.mismatches.add(new FileCounts.Mismatch(number, PageHeader.checksum(page), computed));
      }
    }
    return true;
  }

  /** What became of a page: summed, held whole until the cluster is known, or its file let go. */
  private enum Fate { SUMMED, HELD, LET_GO }

  /** Counts a table page, as if its undecided tuples (of one key) were live and as if dead. */
  private Fate countHeap(FileCounts file, int number, byte[] page, long block, int outcome) {
    HeapPage.BothWays counted;
    try {
      assumed.newPage();
      counted = heapPage.countBothWays(page, block, assumed);
    } catch (HintBitsOnly.OutcomeNotYetKnown e) {
      return held(file, number, page); // undecided tuples of two keys
    }
    HeapPageStats live = counted.assumedLive();
    if (live.isBad()) {
      return held(file, number, page);
    }
    TupleOutcomeKey key = assumed.key();
    if (key == null) {
      file.heapSums.add(outcome, byRule(live, page));
      return Fate.SUMMED;
    }
    FileCounts.Assumed sums = file.assumed.get(key);
    if (sums == null) {
      if (!keep(file, () -> file.assumed.put(key, new FileCounts.Assumed()), ASSUMED_KEY_BYTES)) {
        return Fate.LET_GO;
      }
      sums = file.assumed.get(key);
    }
    HeapPageStats dead = counted.assumedDead();
    sums.live.add(outcome, byRule(live, page));
    sums.dead.add(outcome, byRule(dead, page));
    sums.tuples[outcome] += live.tupleCount() - dead.tupleCount();
    return Fate.SUMMED;
  }

  /**
   * Counts an index page under each free-space rule: read once, and again under the other rules
   * only where its method cannot derive them ({@link IndexPageCounter#recount}).
   */
  private Fate countIndex(FileCounts file, int number, byte[] page, long block, int outcome,
      IndexAccessMethod method) {
    IndexPageCounter[] counters = indexCounters.computeIfAbsent(method, m -> {
      IndexPageCounter[] byRule = new IndexPageCounter[FreeSpaceRule.values().length];
      for (FreeSpaceRule rule : FreeSpaceRule.values()) {
        byRule[rule.ordinal()] = m.counter(rulesOf(rule), m.defaultFillfactor());
      }
      return byRule;
    });
    IndexPageStats[] byRule = new IndexPageStats[counters.length];
    for (int r = 0; r < byRule.length; r++) {
      byRule[r] = r == 0 ? counters[r].count(page, block) : counters[r].recount(byRule[0], page, block);
      if (byRule[r].isBad()) {
        return held(file, number, page);
      }
    }
    file.addPage(outcome, byRule);
    return Fate.SUMMED;
  }

  /** A table page's stats under each free-space rule. */
  private static HeapPageStats[] byRule(HeapPageStats stats, byte[] page) {
    HeapPageStats[] byRule = new HeapPageStats[FreeSpaceRule.values().length];
    for (FreeSpaceRule rule : FreeSpaceRule.values()) {
      byRule[rule.ordinal()] = stats.withFreeSpace(rule.heapPage(page, PageHeader.maxOffsetNumber(page)));
    }
    return byRule;
  }

  /** {@link #hold}, as the page's fate. */
  private Fate held(FileCounts file, int number, byte[] page) {
    return hold(file, number, page) ? Fate.HELD : Fate.LET_GO;
  }

  /** Holds the page whole until the cluster is known. */
  private boolean hold(FileCounts file, int number, byte[] page) {
    return keep(file, () -> file.held.put(number, page.clone()), PageHeader.BLCKSZ);
  }

  /** Keeps {@code bytes} more for {@code file} if the memory allows; false if not. */
  private boolean keep(FileCounts file, Runnable keeping, long bytes) {
    if (held + bytes > heldAtMost) {
      return false;
    }
    keeping.run();
    held += bytes;
    file.heldBytes += bytes;
    return true;
  }
}
