package io.pgbloat.reuse;

import io.pgbloat.page.HeapPageStats;
import io.pgbloat.page.IndexPageStats;
import io.pgbloat.stats.DeadFractionHistogram;
import io.pgbloat.stats.IndexPageSums;
import io.pgbloat.stats.PartialSums;
import java.io.Serializable;

/**
 * The sums a scan counted over the pages it read of one chunk, a table's or an index's,
 * merged exactly across the tasks that read parts of it; {@link #kept} says whether they may be
 * kept for a later run.
 */
public final class ChunkSums implements Serializable {
  private static final long serialVersionUID = 1L;

  private final PartialSums table;
  private final long[] bins;
  private final IndexPageSums index;
  private long pages;
  private boolean bad;
  private boolean unsettled;

  private ChunkSums(PartialSums table, IndexPageSums index) {
    this.table = table;
    this.bins = table != null ? new long[DeadFractionHistogram.BINS] : new long[0];
    this.index = index;
  }

  public static ChunkSums ofTable() {
    return new ChunkSums(new PartialSums(), null);
  }

  /** Sums of an index chunk, into {@code empty} sums of its access method. */
  public static ChunkSums ofIndex(IndexPageSums empty) {
    return new ChunkSums(null, empty);
  }

  /** Adds a table page, {@code unsettled} when its count stood on an answer a later copy may change. */
  public void add(HeapPageStats page, boolean unsettled) {
    table.add(page);
    pages++;
    bad |= page.isBad();
    this.unsettled |= unsettled;
    if (!page.isBad()) {
      bins[DeadFractionHistogram.binOfDeadBytes(page.deadTupleLen())]++;
    }
  }

  /** Adds an index page, {@code readWhole} as the plan reads it. */
  public void add(IndexPageStats page, boolean readWhole) {
    index.add(page, readWhole);
    pages++;
    bad |= page.isBad();
  }

  public ChunkSums merge(ChunkSums other) {
    if (table != null) {
      table.merge(other.table);
      for (int i = 0; i < bins.length; i++) {
        bins[i] += other.bins[i];
      }
    } else {
      index.merge(other.index);
    }
    pages += other.pages;
    bad |= other.bad;
    unsettled |= other.unsettled;
    return this;
  }

  /**
   * The chunk as a later run may reuse it, or null when it may not: a chunk of {@code blocks}
   * blocks all read, none bad, none counted on an unsettled answer. An index's chunk 0 is never
   * kept: its metapage is read again every run.
   */
  public KeptChunk kept(ChunkKey key, int blocks) {
    if (pages != blocks || bad || unsettled || index != null && key.chunk() == 0) {
      return null;
    }
    return new KeptChunk(key.chunk(), blocks, table != null ? table.toLongs() : index.toLongs(), bins);
  }
}
