package io.pgbloat.scan;

import io.pgbloat.io.read.BlockRead;
import io.pgbloat.io.read.BlockReader;
import io.pgbloat.io.read.IoSettings;
import io.pgbloat.io.read.PrefetchStream;
import io.pgbloat.io.read.ReadTotals;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.page.HeapPage;
import io.pgbloat.page.HeapPageStats;
import io.pgbloat.page.PageHeader;
import io.pgbloat.page.PageProblem;
import io.pgbloat.sample.RelationSlice;
import io.pgbloat.sample.ScanRange;
import io.pgbloat.xact.TransactionOutcomes;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The pages of one {@link ScanRange}, counted, in order: slice after slice, each read through
 * its own {@link PrefetchStream}. A block that cannot be read comes back as a bad page with
 * the reason; the rest of the range goes on. Close it to stop the range's I/O threads.
 */
public final class RangePages implements Iterator<ScannedPage>, AutoCloseable {
  private final TransactionOutcomes outcomes;
  private final HeapPage heapPage;
  private final HeapPage toastPage;
  private final Iterator<RelationSlice> slices;
  private final BlockReader reader;
  private final FileStore files;
  private final byte[] page = new byte[PageHeader.BLCKSZ];
  private RelationSlice slice;
  private PrefetchStream stream;
  private long position;

  /**
   * @param outcomes what {@code heapPage} and {@code toastPage} ask of the commit log
   * @param toastPage counts a TOAST table's pages, its chunks too
   */
  RangePages(FileStore files, IoSettings io, TransactionOutcomes outcomes, HeapPage heapPage, HeapPage toastPage,
      ScanRange range) {
    this.outcomes = outcomes;
    this.heapPage = heapPage;
    this.toastPage = toastPage;
    this.slices = range.slices().iterator();
    this.reader = new BlockReader(files, io);
    this.files = files;
  }

  @Override
  public boolean hasNext() {
    while (stream == null || !stream.hasNext()) {
      releaseSlice();
      if (!slices.hasNext()) {
        return false;
      }
      slice = slices.next();
      stream = reader.stream(slice.file(), slice.blocks());
      position = 0;
    }
    return true;
  }

  @Override
  public ScannedPage next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    BlockRead read = stream.next();
    long unsettledBefore = outcomes.unsettled();
    HeapPageStats stats;
    if (read.failure() != null) {
      stats = HeapPageStats.bad(new PageProblem(read.block(), read.failure()));
    } else {
      // counted in a buffer of its own: the stream's buffer is reused by the next read
      read.copyTo(page);
      stats = slice.toast() ? toastPage.count(page, read.block()) : heapPage.count(page, read.block(), slice.columns());
    }
    return new ScannedPage(slice.relation(), read.block(), slice.stratumAt(position++), stats,
        outcomes.unsettled() != unsettledBefore);
  }

  /** Blocks read and read calls made so far. */
  public ReadTotals totals() {
    return reader.totals();
  }

  @Override
  public void close() {
    reader.close();
    releaseSlice();
  }

  /** The slice's files are closed once its stream is done: a range may cover many relations. */
  private void releaseSlice() {
    if (slice != null) {
      slice.file().release(files);
      slice = null;
    }
  }
}
