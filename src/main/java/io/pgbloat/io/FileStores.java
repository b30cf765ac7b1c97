package io.pgbloat.io;

import java.io.IOException;

/** Opens a data directory's files as a scan reads them. */
public final class FileStores {
  private FileStores() {}

  /** A plain path or a file: URI: a directory O_DIRECT can read (hdfs:// and the like cannot). */
  public static boolean isLocal(String dataDir) {
    return !HadoopFileStore.hasScheme(dataDir) || dataDir.startsWith("file:");
  }

  /**
   * The files of the data directory at {@code dataDir}, through Hadoop: a directory as it is, or
   * the archives of a pg_basebackup -Ft directory read in place ({@link TarFileStore}).
   */
  public static FileStore open(String dataDir) throws IOException {
    return inPlace(HadoopFileStore.open(dataDir, HadoopFileStore.configuration(dataDir)));
  }

  /** As {@link #open}, with O_DIRECT for block reads when asked (the archives' too). */
  public static FileStore forScan(String dataDir, IoSettings io) throws IOException {
    FileStore opened = HadoopFileStore.open(dataDir, HadoopFileStore.configuration(dataDir));
    try {
      return inPlace(io.directIo() ? DirectFileStore.open(opened) : opened);
    } catch (IOException | RuntimeException e) {
      opened.close();
      throw e;
    }
  }

  /** {@code dir}, or the data directory in its archives when it is a pg_basebackup -Ft directory. */
  private static FileStore inPlace(FileStore dir) throws IOException {
    try {
      return TarFileStore.isTarBackup(dir) ? TarFileStore.open(dir) : dir;
    } catch (IOException | RuntimeException e) {
      dir.close();
      throw e;
    }
  }
}
