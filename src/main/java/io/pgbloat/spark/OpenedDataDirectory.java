package io.pgbloat.spark;

import io.pgbloat.catalog.DataDirectory;
import io.pgbloat.error.DataDirectoryException;
import io.pgbloat.io.FileStores;
import io.pgbloat.io.backup.ArchiveException;
import io.pgbloat.io.backup.RelationFileReader;
import io.pgbloat.io.store.BackupIndex;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.io.store.StoreAddress;
import io.pgbloat.pass.IndexingPassCounter;
import io.pgbloat.pass.IndexingPassCounts;
import io.pgbloat.sample.SampleSize;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A data directory opened for planning: its store (a directory, or a backup read in place), its
 * catalog, and what opening counted of a compressed backup's pages as it was decoded to be
 * indexed. Opening checks that it is one this tool reads (version, control file): quick, so a
 * wrong path fails before anything slow starts.
 */
final class OpenedDataDirectory implements AutoCloseable {
  private final FileStore store;
  private final DataDirectory catalog;
  /** What opening counted of a compressed backup's pages; null once taken (or when none was). */
  private IndexingPassCounts counted;
  private final boolean countedWhileOpening;
  /** How long opening took (a compressed backup's: decoding it whole). */
  private final double openSeconds;

  private OpenedDataDirectory(FileStore store, DataDirectory catalog, IndexingPassCounts counted,
      double openSeconds) {
    this.store = store;
    this.catalog = catalog;
    this.countedWhileOpening = counted != null && !counted.isEmpty();
    this.counted = countedWhileOpening ? counted : null; // none to settle: the plan is made as for a directory
    this.openSeconds = openSeconds;
  }

  /**
   * Opens the data directory {@code options} name.
   *
   * @param sums whether the run adds up sums, so that a full scan may count a compressed backup's
   *     pages as it is decoded to be indexed, once (not the page view, which reads them one by one)
   */
  static OpenedDataDirectory open(AnalyzeOptions options, boolean sums) {
    FileStore store = null;
    try {
      IndexingPassCounter counter = sums && options.sampleSize().mode() == SampleSize.Mode.FULL_SCAN
          ? new IndexingPassCounter() : null;
      long started = System.nanoTime();
      store = FileStores.open(options.dataDir(), options.store(), options.io().directIo(),
          counter == null ? RelationFileReader.NONE : counter);
      double seconds = (System.nanoTime() - started) / 1e9;
      return new OpenedDataDirectory(store, DataDirectory.open(store), counter == null ? null : counter.counts(),
          seconds);
    } catch (ArchiveException e) {
      throw new DataDirectoryException("Cannot read the backup in " + options.dataDir() + ": " + e.getMessage(), e);
    } catch (IOException e) {
      throw new DataDirectoryException("Cannot read data directory " + options.dataDir() + ": " + e.getMessage()
          + (options.dataDir().contains("hdfs://") ? " (check the path, and that the name node is up and reachable at "
              + "that host and port)" : " (check the path)"), e);
    } catch (RuntimeException e) {
      closeQuietly(store);
      throw e;
    }
  }

  FileStore store() {
    return store;
  }

  DataDirectory catalog() {
    return catalog;
  }

  /** Whether opening counted a compressed backup's pages as it was indexed: a full scan may then need no task. */
  boolean countedWhileOpening() {
    return countedWhileOpening;
  }

  /** How long counting as the backup was indexed took: opening, when it counted; else 0. */
  double countingSeconds() {
    return countedWhileOpening ? openSeconds : 0;
  }

  /**
   * What opening counted, once; null when it counted nothing or was asked before. Let go here,
   * so that what it holds (up to a quarter of the heap) is free for the scan once the plan has
   * settled it.
   */
  IndexingPassCounts takeCounted() {
    IndexingPassCounts counts = counted;
    counted = null;
    return counts;
  }

  /** How a task opens this store again: the data directory and its settings as {@code options} give them. */
  StoreAddress address(AnalyzeOptions options) {
    return new StoreAddress(options.dataDir(), options.store(), store.backupIndex());
  }

  /** What the catalog and the store have to say that changes no figure. */
  List<String> warnings() {
    List<String> warnings = new ArrayList<>(catalog.warnings());
    BackupIndex index = store.backupIndex();
    if (index != null && index.streamingWarning() != null) {
      warnings.add(index.streamingWarning());
    }
    return warnings;
  }

  @Override
  public void close() {
    closeQuietly(store);
  }

  private static void closeQuietly(FileStore store) {
    try {
      if (store != null) {
        store.close();
      }
    } catch (IOException e) {
      // read-only streams: nothing was lost
    }
  }
}
