package io.pgbloat.io;

import io.pgbloat.io.backup.BarmanCloudBackup;
import io.pgbloat.io.backup.PgBackRestFileStore;
import io.pgbloat.io.backup.RelationFileReader;
import io.pgbloat.io.backup.TarFileStore;
import io.pgbloat.io.read.IoSettings;
import io.pgbloat.io.store.DirectFileStore;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.io.store.HadoopFileStore;
import io.pgbloat.io.store.ListedFileStore;
import io.pgbloat.io.store.LocalFileStore;
import io.pgbloat.io.store.StoreAddress;
import io.pgbloat.io.store.StoreConnector;
import io.pgbloat.io.store.StorePaths;
import io.pgbloat.io.store.StoreSettings;
import java.io.IOException;

/** Opens a data directory's files as a scan reads them. */
public final class FileStores {
  private FileStores() {}

  /** A plain path or a file: URI: a directory O_DIRECT can read (hdfs:// and the like cannot). */
  public static boolean isLocal(String dataDir) {
    String files = directoryOf(dataDir);
    return !StorePaths.hasScheme(files) || files.startsWith("file:");
  }

  /**
   * Whether {@code dataDir}'s files are in an object store ({@link StoreConnector}): each read is
   * a request there, whose cost a larger read spreads ({@link IoSettings#OBJECT_STORE_COMBINE_LIMIT}).
   */
  public static boolean isObjectStore(String dataDir) {
    String files = directoryOf(dataDir);
    return StorePaths.hasScheme(files) && StoreConnector.of(files.substring(0, files.indexOf(':'))).isPresent();
  }

  /**
   * The directory whose files {@code dataDir} names: a pgBackRest address's repository, a
   * Barman Cloud address's bucket prefix, else itself.
   */
  private static String directoryOf(String dataDir) {
    if (BarmanCloudBackup.Address.isOne(dataDir)) {
      return BarmanCloudBackup.Address.parse(dataDir).url();
    }
    return PgBackRestFileStore.Address.isOne(dataDir) ? PgBackRestFileStore.Address.parse(dataDir).repository()
        : dataDir;
  }

  /**
   * The files of the data directory at {@code dataDir}: a directory as it is, or
   * the archives of a pg_basebackup -Ft directory read in place ({@link TarFileStore}), reached
   * with the site files' Hadoop settings alone.
   */
  public static FileStore open(String dataDir) throws IOException {
    return inPlace(dataDir, directory(dataDir, StoreSettings.DEFAULT), RelationFileReader.NONE);
  }

  /**
   * As {@link #open(String)}, a compressed backup's files streamed with O_DIRECT when
   * {@code directStreams} ({@link DirectFileStore#forStreams}), handing {@code relations} the
   * relation files a compressed archive decodes as it is indexed
   * ({@link TarFileStore#open(FileStore, RelationFileReader)}).
   */
  public static FileStore open(String dataDir, StoreSettings settings, boolean directStreams,
      RelationFileReader relations) throws IOException {
    FileStore dir = directory(dataDir, settings);
    if (directStreams) {
      try {
        dir = DirectFileStore.forStreams(dir);
      } catch (RuntimeException e) { // not a local directory
        dir.close();
        throw e;
      }
    }
    return inPlace(dataDir, dir, relations);
  }

  /**
   * The files at {@code address} as a task reads them: with O_DIRECT for block reads when asked
   * (the archives' and the repository's too), a backup through the index the driver read.
   */
  public static FileStore forScan(StoreAddress address, IoSettings io) throws IOException {
    return reopen(address, io.directIo());
  }

  /** The files at {@code address}, with no O_DIRECT (a locality lookup's). */
  public static FileStore open(StoreAddress address) throws IOException {
    return reopen(address, false);
  }

  private static FileStore reopen(StoreAddress address, boolean directIo) throws IOException {
    FileStore opened = directory(address.dataDir(), address.settings());
    try {
      FileStore dir = directIo ? DirectFileStore.open(opened) : opened;
      return address.index() == null ? dir : address.index().open(dir);
    } catch (IOException | RuntimeException e) {
      opened.close();
      throw e;
    }
  }

  /**
   * The directory {@code dataDir} names (a repository's, for a pgBackRest backup): a local one
   * through the JDK ({@link LocalFileStore}), any other through Hadoop with {@code settings},
   * its lengths answered by listing each directory once ({@link ListedFileStore}).
   */
  private static FileStore directory(String dataDir, StoreSettings settings) throws IOException {
    String files = directoryOf(dataDir);
    return isLocal(files) ? LocalFileStore.open(files)
        : new ListedFileStore(HadoopFileStore.open(files, settings.configuration()));
  }

  /**
   * The data directory in {@code dir}: a pgBackRest or Barman Cloud backup when {@code dataDir}
   * names one, the archives of a pg_basebackup -Ft directory, or the directory itself.
   */
  private static FileStore inPlace(String dataDir, FileStore dir, RelationFileReader relations) throws IOException {
    try {
      if (BarmanCloudBackup.Address.isOne(dataDir)) {
        return BarmanCloudBackup.open(dir, BarmanCloudBackup.Address.parse(dataDir), relations);
      }
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
