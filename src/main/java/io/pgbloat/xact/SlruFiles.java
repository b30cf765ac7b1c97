package io.pgbloat.xact;

import io.pgbloat.error.CommitStatusUnavailableException;
import io.pgbloat.io.store.FileStore;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Pages of one SLRU directory (pg_xact, pg_multixact/offsets, pg_multixact/members), as
 * {@code src/backend/access/transam/slru.c} lays them out: {@link #SLRU_PAGES_PER_SEGMENT}
 * pages of {@link #SLRU_PAGE_SIZE} bytes per segment file, named by the segment number in
 * upper-case hex of at least four digits (SlruFileName, "%04X"; 17 and 18 keep these short names for pg_xact,
 * pg_subtrans and pg_multixact).
 * Keeps the most recently used pages; one instance serves one thread.
 */
final class SlruFiles {
  /** SLRU_PAGES_PER_SEGMENT ({@code slru.h}). */
  static final int SLRU_PAGES_PER_SEGMENT = 32;
  /** SLRU pages are BLCKSZ bytes. */
  static final int SLRU_PAGE_SIZE = 8192;
  /** Pages kept in memory: 256 pages of pg_xact cover 8M transactions. */
  private static final int CACHED_PAGES = 256;

  private final FileStore files;
  private final String directory;
  /** The page asked for last, and its number: most tuples in a row ask for the same one. */
  private byte[] lastPage;
  private long lastPageNumber = -1;
  private final Map<Long, byte[]> cache = new LinkedHashMap<>(64, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, byte[]> eldest) {
      return size() > CACHED_PAGES;
    }
  };

  SlruFiles(FileStore files, String directory) {
    this.files = files;
    this.directory = directory;
  }

  /** Segment file of {@code pageNumber}, relative to the data directory. */
  String segmentPath(long pageNumber) {
    return String.format("%s/%04X", directory, pageNumber / SLRU_PAGES_PER_SEGMENT);
  }

  /**
   * The page {@code pageNumber} of this SLRU.
   *
   * @throws CommitStatusUnavailableException when its segment is missing or too short
   */
  byte[] page(long pageNumber) {
    byte[] page = pageIfCopied(pageNumber);
    if (page == null) {
      throw new CommitStatusUnavailableException("Cannot look up transaction status: " + whyMissing(pageNumber));
    }
    return page;
  }

  /**
   * The page {@code pageNumber}, or null when the copy does not hold it (its segment is missing
   * or ends before it): a copy of a running server may end before pages written after it.
   *
   * @throws CommitStatusUnavailableException when the segment cannot be read
   */
  byte[] pageIfCopied(long pageNumber) {
    if (pageNumber == lastPageNumber) {
      return lastPage;
    }
    byte[] page = cache.get(pageNumber);
    if (page != null) {
      return remember(pageNumber, page);
    }
    String path = segmentPath(pageNumber);
    long position = (pageNumber % SLRU_PAGES_PER_SEGMENT) * SLRU_PAGE_SIZE;
    page = new byte[SLRU_PAGE_SIZE];
    try {
      if (files.length(path) < position + SLRU_PAGE_SIZE) {
        return null;
      }
      files.readFully(path, position, page, 0, SLRU_PAGE_SIZE);
    } catch (IOException e) {
      throw new CommitStatusUnavailableException(
          "Cannot look up transaction status: reading " + path + " failed: " + e.getMessage());
    }
    cache.put(pageNumber, page);
    return remember(pageNumber, page);
  }

  private byte[] remember(long pageNumber, byte[] page) {
    lastPageNumber = pageNumber;
    lastPage = page;
    return page;
  }

  /** Why page {@code pageNumber} is not in the copy, for messages. */
  String whyMissing(long pageNumber) {
    String path = segmentPath(pageNumber);
    try {
      long length = files.length(path);
      return length < 0 ? path + " is missing"
          : path + " is " + length + " bytes, page " + (pageNumber % SLRU_PAGES_PER_SEGMENT) + " lies beyond it";
    } catch (IOException e) {
      return "reading " + path + " failed: " + e.getMessage();
    }
  }
}
