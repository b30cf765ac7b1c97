package io.pgbloat.io;

import java.io.IOException;

/** Opens a data directory's files as a scan reads them. */
public final class FileStores {
  private FileStores() {}

  /** A plain path or a file: URI: a directory O_DIRECT can read (hdfs:// and the like cannot). */
  public static boolean isLocal(String dataDir) {
    String files = directoryOf(dataDir);
    return !HadoopFileStore.hasScheme(files) || files.startsWith("file:");
  }

  /** The directory whose files {@code dataDir} names: a pgBackRest address's repository, else itself. */
  private static String directoryOf(String dataDir) {
    return PgBackRestFileStore.Address.isOne(dataDir) ? PgBackRestFileStore.Address.parse(dataDir).repository()
        : dataDir;
  }

  /**
   * The files of the data directory at {@code dataDir}, through Hadoop: a directory as it is, or
   * the archives of a pg_basebackup -Ft directory read in place ({@link TarFileStore}).
   */
  public static FileStore open(String dataDir) throws IOException {
    return open(dataDir, RelationFileReader.NONE);
  }

  /**
   * As {@link #open(String)}, handing {@code relations} the relation files a compressed
   * archive decodes as it is indexed ({@link TarFileStore#open(FileStore, RelationFileReader)}).
   */
  public static FileStore open(String dataDir, RelationFileReader relations) throws IOException {
    return inPlace(dataDir, hadoop(dataDir), relations);
  }

  /**
   * The files at {@code address} as a task reads them: with O_DIRECT for block reads when asked
   * (the archives' and the repository's too), a backup through the index the driver read.
   */
  public static FileStore forScan(StoreAddress address, IoSettings io) throws IOException {
    return reopen(address, io.directIo());
  }

  /** The files at {@code address} through Hadoop only (a locality lookup's). */
  public static FileStore open(StoreAddress address) throws IOException {
    return reopen(address, false);
  }

  private static FileStore reopen(StoreAddress address, boolean directIo) throws IOException {
    FileStore opened = hadoop(address.dataDir());
    try {
      FileStore dir = directIo ? DirectFileStore.open(opened) : opened;
      return address.index() == null ? dir : address.index().open(dir);
    } catch (IOException | RuntimeException e) {
      opened.close();
      throw e;
    }
  }

  /** The directory {@code dataDir} names (a repository's, for a pgBackRest backup), through Hadoop. */
  private static FileStore hadoop(String dataDir) throws IOException {
    String files = directoryOf(dataDir);
    return HadoopFileStore.open(files, HadoopFileStore.configuration(files));
  }

  /**
   * The data directory in {@code dir}: a pgBackRest backup when {@code dataDir} names one, the
   * archives of a pg_basebackup -Ft directory, or the directory itself.
   */
  private static FileStore inPlace(String dataDir, FileStore dir, RelationFileReader relations) throws IOException {
    try {
      if (PgBackRestFileStore.Address.isOne(dataDir)) {
        return PgBackRestFileStore.open(dir, PgBackRestFileStore.Address.parse(dataDir));
      }
      return TarFileStore.isTarBackup(dir) ? TarFileStore.open(dir, relations) : dir;
    } catch (IOException | RuntimeException e) {
      dir.close();
      throw e;
    }
  }
}
