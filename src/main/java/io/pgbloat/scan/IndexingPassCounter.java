package io.pgbloat.scan;

import io.pgbloat.io.RelationFileReader;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.PageHeader;
import io.pgbloat.xact.TupleOutcomeKey;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Counts the pages of every relation file a compressed backup decodes while it is indexed, in
 * that one pass, so that a full scan decodes the backup once. Nothing of the cluster is known
 * yet (pg_basebackup sends the files in directory order and pg_control last), so each file is
 * counted in every form the cluster's rules could take ({@link FileCounts}), and what no
 * rule-free count settles is held until they are known. {@link #counts()} then settles the
 * relations the plan names ({@link IndexingPassCounts}).
 *
 * <p>The pages are counted by {@link PassWorkers}, a batch at a time, and added to their file's
 * counts here, in the file's order, by the thread that reads the archive.
 */
public final class IndexingPassCounter implements RelationFileReader, AutoCloseable {
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
  /** Pages a worker counts at a time: enough that handing them over costs little beside counting them. */
  static final int BATCH_PAGES = 32;
  /** Batches given out per worker at most before the oldest is added up: work queued for each. */
  private static final int BATCHES_PER_WORKER = 2;

  private final long heldAtMost;
  private final int workerCount;
  private final Map<String, FileCounts> files = new HashMap<>();
  /** The workers, started at the first file read. */
  private PassWorkers workers;
  /** Page buffers of batches already added up, to be filled again. */
  private final Deque<byte[][]> spare = new ArrayDeque<>();
  private long held;

  public IndexingPassCounter() {
    this(Runtime.getRuntime().maxMemory() / HEAP_SHARE, Runtime.getRuntime().availableProcessors());
  }

  /**
   * @param heldAtMost the bytes of pages it may hold
   * @param workerCount the threads that count pages
   */
  IndexingPassCounter(long heldAtMost, int workerCount) {
    this.heldAtMost = heldAtMost;
    this.workerCount = workerCount;
  }

  /** A batch of pages given out: its buffers, its first page's number in the file, what it counted. */
  private record Batch(byte[][] pages, int first, Future<PassPage[]> counted) {}

  /** Counts the file at {@code path}; one it cannot settle is let go, and a task reads it. */
  @Override
  public void read(String path, InputStream bytes) throws IOException {
    int segment = segmentOf(path);
    FileCounts file = new FileCounts(segment);
    if (segment < 0 || !keep(file, () -> { }, FILE_SUMS_BYTES)) {
      return;
    }
    if (workers == null) {
      workers = new PassWorkers(workerCount);
    }
    Deque<Batch> inFlight = new ArrayDeque<>();
    try {
      boolean more = true;
      while (more || !inFlight.isEmpty()) {
        if (more && inFlight.size() < workerCount * BATCHES_PER_WORKER) {
          byte[][] pages = spare.isEmpty() ? new byte[BATCH_PAGES][PageHeader.BLCKSZ] : spare.pop();
          int n = 0;
          while (n < BATCH_PAGES && bytes.readNBytes(pages[n], 0, PageHeader.BLCKSZ) == PageHeader.BLCKSZ) {
            n++;
          }
          more = n == BATCH_PAGES;
          if (n > 0) {
            inFlight.add(new Batch(pages, file.pages, workers.count(pages, n, file.firstBlock() + file.pages)));
            file.pages += n;
          } else {
            spare.push(pages);
          }
          continue;
        }
        Batch batch = inFlight.remove();
        PassPage[] counted = counted(batch);
        spare.push(batch.pages());
        for (int i = 0; i < counted.length; i++) {
          if (!add(file, batch.first() + i, batch.pages()[i], counted[i])) {
            held -= file.heldBytes; // what it held is let go
            return;
          }
        }
      }
    } finally {
      for (Batch batch : inFlight) { // a file let go or a read that failed: the workers finish with the buffers
        batch.counted().cancel(false);
      }
    }
    files.put(path, file);
  }

  /** What a batch counted, once it has. */
  private static PassPage[] counted(Batch batch) throws IOException {
    try {
      return batch.counted().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while counting the backup's pages");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Error error) {
        throw error;
      }
      throw cause instanceof RuntimeException failure ? failure : new IllegalStateException(cause);
    }
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

  /** Stops the workers. */
  @Override
  public void close() {
    if (workers != null) {
      workers.close();
    }
  }

  /**
   * Adds page {@code number} of {@code file}, as a worker counted it, to the file's counts, or
   * holds it; false when the file cannot be settled.
   */
  private boolean add(FileCounts file, int number, byte[] page, PassPage counted) {
    if (counted instanceof PassPage.Zero) {
      return keep(file, () -> file.zeroPages.add(number), ZERO_PAGE_BYTES);
    }
    if (counted instanceof PassPage.Unknown) {
      return hold(file, number, page);
    }
    IndexAccessMethod method = counted instanceof PassPage.Unsettled unsettled ? unsettled.method()
        : counted instanceof PassPage.Btree ? IndexAccessMethod.BTREE
        : counted instanceof PassPage.OtherIndex other ? other.method() : null;
    if (!file.isOfKind(method == null, method) || counted instanceof PassPage.Unsettled) {
      return hold(file, number, page);
    }
    int outcome;
    int computed;
    if (counted instanceof PassPage.Table table) {
      if (!addTable(file, table)) {
        return false;
      }
      outcome = table.outcome();
      computed = table.computed();
    } else if (counted instanceof PassPage.Btree btree) {
      file.addBtree(btree.outcome(), btree.byRule());
      outcome = btree.outcome();
      computed = btree.computed();
    } else {
      PassPage.OtherIndex other = (PassPage.OtherIndex) counted;
      file.addPage(other.outcome(), other.byRule());
      outcome = other.outcome();
      computed = other.computed();
    }
    if (method != null && file.firstBlock() + number == 0
        && !keep(file, () -> file.metapage = page.clone(), PageHeader.BLCKSZ)) {
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

  /** Adds a table page, by its undecided tuples' key if it has one; false when the file cannot be settled. */
  private boolean addTable(FileCounts file, PassPage.Table table) {
    TupleOutcomeKey key = table.key();
    if (key == null) {
      file.heapSums.add(table.outcome(), table.live());
      return true;
    }
    FileCounts.Assumed sums = file.assumed.get(key);
    if (sums == null) {
      if (!keep(file, () -> file.assumed.put(key, new FileCounts.Assumed()), ASSUMED_KEY_BYTES)) {
        return false;
      }
      sums = file.assumed.get(key);
    }
    sums.live.add(table.outcome(), table.live());
    sums.dead.add(table.outcome(), table.dead());
    sums.tuples[table.outcome()] += table.keyTuples();
    return true;
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
