package io.pgbloat.io.store;

import java.io.IOException;
import java.io.Serializable;
import java.util.Optional;

/**
 * What the driver read of a backup to find its files (a tar archive's members, a pgBackRest
 * manifest), kept so that each task opens the same files with no second read of it.
 */
public interface BackupIndex extends Serializable {
  /** The backup's files over {@code dir} (the directory the backup's address names), which the store owns. */
  FileStore open(FileStore dir) throws IOException;

  /**
   * Where {@code path} lies in a stream that can only be read in order (a compressed archive's
   * or file's decoded bytes), so that a task reads its files in that order and decodes the stream once;
   * empty for a file read at random.
   */
  default Optional<StreamPosition> streamPosition(String path) {
    return Optional.empty();
  }

  /**
   * When some files lie in streams that can only be read in order ({@link #streamPosition}), the
   * warning that says what reading them costs; else null.
   */
  default String streamingWarning() {
    return null;
  }

  /** Whether some files lie in streams that can only be read in order. */
  default boolean streams() {
    return streamingWarning() != null;
  }

  /**
   * @param stream the stream's name (an archive's file)
   * @param offset where in the decoded stream the file starts
   */
  record StreamPosition(String stream, long offset) implements Serializable {}
}
