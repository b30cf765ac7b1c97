package io.pgbloat.io;

import java.io.IOException;

/** Opens a data directory's files as a scan reads them. */
public final class FileStores {
  private FileStores() {}

  /** A plain path or a file: URI: a directory O_DIRECT can read (hdfs:// and the like cannot). */
  public static boolean isLocal(String dataDir) {
    return !HadoopFileStore.hasScheme(dataDir) || dataDir.startsWith("file:");
  }

  /** The files under {@code dataDir} through Hadoop, with O_DIRECT for block reads when asked. */
  public static FileStore forScan(String dataDir, IoSettings io) throws IOException {
    FileStore opened = HadoopFileStore.open(dataDir, HadoopFileStore.configuration(dataDir));
    try {
      return io.directIo() ? DirectFileStore.open(opened) : opened;
    } catch (IOException | RuntimeException e) {
      opened.close();
      throw e;
    }
  }
}
