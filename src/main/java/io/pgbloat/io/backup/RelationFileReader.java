package io.pgbloat.io.backup;

import java.io.IOException;
import java.io.InputStream;

/**
 * Reads the relation files a compressed backup decodes while it is indexed, in that same pass:
 * the main fork of every relation, each segment file as it comes by, before the catalog, the
 * commit log or pg_control (which pg_basebackup sends last) are known.
 */
@FunctionalInterface
public interface RelationFileReader {
  /** Reads nothing: the pass only indexes. */
  RelationFileReader NONE = (path, bytes) -> { };

  /**
   * @param path the segment file's path in the data directory ({@code base/5/16384.1})
   * @param bytes its bytes, in order; what is left unread is skipped
   */
  void read(String path, InputStream bytes) throws IOException;
}
