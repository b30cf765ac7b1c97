package io.pgbloat.io;

import java.io.Serializable;

/**
 * How a task opens the files the driver opened: the data directory as given, and for a backup
 * the index the driver read ({@link BackupIndex}), so that no task reads it again.
 *
 * @param dataDir the data directory as the user gave it (a path, a URI, a pgbackrest: address)
 * @param index the backup's index, or null for a plain data directory
 */
public record StoreAddress(String dataDir, BackupIndex index) implements Serializable {
  /** {@code io} as a task reads these files with: one read in flight where they decode in order. */
  public IoSettings readingWith(IoSettings io) {
    return index != null && index.decodesInOrder() ? io.withConcurrency(1) : io;
  }
}
