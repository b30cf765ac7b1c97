package io.pgbloat.io.store;

import io.pgbloat.error.NotADataDirectoryException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.UnsupportedFileSystemException;

/**
 * A {@link FileStore} over Hadoop's {@link FileSystem}: {@code file://}, {@code hdfs://} and
 * any other scheme Hadoop knows. Local files are read through the raw local file system:
 * the checksummed wrapper would look for {@code .crc} side files that a data directory never
 * has. Open streams are kept per file until {@link #close()}; positional reads on them are
 * safe from several threads.
 */
public final class HadoopFileStore implements FileStore {
  private final String root;
  private final Path rootPath;
  private final FileSystem fs;
  private final OpenFiles<FSDataInputStream> streams;

  private HadoopFileStore(String root, Path rootPath, FileSystem fs) {
    this.root = root;
    this.rootPath = rootPath;
    this.fs = fs;
    this.streams = new OpenFiles<>(in -> true);
  }

  /**
   * Opens the data directory at {@code root}: a path or a URI. A plain path is a local path.
   *
   * @throws IOException when the scheme is unknown or the file system cannot be reached
   */
  public static HadoopFileStore open(String root, Configuration conf) throws IOException {
    URI uri;
    try {
      uri = StorePaths.toUri(root);
    } catch (IllegalArgumentException e) {
      throw new NotADataDirectoryException("Cannot open data directory " + root + ": not a valid path or URI ("
          + e.getMessage() + ")");
    }
    Path rootPath = new Path(uri);
    FileSystem fs;
    try {
      fs = FileSystem.get(uri, conf);
    } catch (UnsupportedFileSystemException e) {
      throw unserved(root, uri);
    } catch (RuntimeException e) {
      if (e.getCause() instanceof ClassNotFoundException) {
        throw unserved(root, uri); // core-default.xml names the scheme's class (fs.s3a.impl, ...), absent here
      }
      throw e;
    }
    if (fs instanceof LocalFileSystem local) {
      fs = local.getRaw();
    }
    return new HadoopFileStore(root, rootPath, fs);
  }

  /** No file system on the class path serves {@code uri}'s scheme: for an object store's, the connector to add. */
  private static NotADataDirectoryException unserved(String root, URI uri) {
    String unserved = "Cannot open data directory " + root + ": no file system serves the scheme '" + uri.getScheme()
        + "'";
    return new NotADataDirectoryException(StoreConnector.of(uri.getScheme())
        .map(c -> unserved + ": its connector is not on the class path; add it (spark-submit --packages "
            + c.packageToAdd() + ")")
        .orElse(unserved + "; give a local path, a file:// or an hdfs:// URI"));
  }

  @Override
  public String root() {
    return root;
  }

  private Path resolve(String path) {
    return path.isEmpty() ? rootPath : new Path(rootPath, path);
  }

  @Override
  public long length(String path) throws IOException {
    try {
      FileStatus status = fs.getFileStatus(resolve(path));
      return status.isFile() ? status.getLen() : -1;
    } catch (FileNotFoundException e) {
      return -1;
    }
  }

  @Override
  public boolean isDirectory(String path) throws IOException {
    try {
      return fs.getFileStatus(resolve(path)).isDirectory();
    } catch (FileNotFoundException e) {
      return false;
    }
  }

  @Override
  public List<String> list(String path) throws IOException {
    List<String> names = new ArrayList<>();
    try {
      for (FileStatus status : fs.listStatus(resolve(path))) {
        names.add(status.getPath().getName());
      }
    } catch (FileNotFoundException e) {
      // an absent directory has no entries
    }
    return names;
  }

  /**
   * One listing of {@code path}: on HDFS with every file's block hosts in it (a located listing
   * carries them), so that the locality lookup asks nothing more per file.
   */
  @Override
  public List<DirectoryEntry> entries(String path) throws IOException {
    List<DirectoryEntry> entries = new ArrayList<>();
    try {
      if (!hasHosts()) {
        for (FileStatus status : fs.listStatus(resolve(path))) {
          entries.add(new DirectoryEntry(status.getPath().getName(), status.isDirectory(),
              status.isFile() ? status.getLen() : -1, List.of()));
        }
        return entries;
      }
      RemoteIterator<LocatedFileStatus> listing = fs.listLocatedStatus(resolve(path));
      while (listing.hasNext()) {
        LocatedFileStatus status = listing.next();
        entries.add(new DirectoryEntry(status.getPath().getName(), status.isDirectory(),
            status.isFile() ? status.getLen() : -1, status.isFile() ? extents(status.getBlockLocations()) : List.of()));
      }
    } catch (FileNotFoundException e) {
      // an absent directory has no entries
    }
    return entries;
  }

  /**
   * Whether this file system's block hosts say where to run: HDFS's do; a local file system has
   * one host, and an object store's connector names a made-up one for every object.
   */
  private boolean hasHosts() {
    return !(fs instanceof RawLocalFileSystem) && StoreConnector.of(rootPath.toUri().getScheme()).isEmpty();
  }

  @Override
  public List<FileExtent> extents(String path) throws IOException {
    if (!hasHosts()) {
      return List.of();
    }
    FileStatus status = fs.getFileStatus(resolve(path));
    return extents(fs.getFileBlockLocations(status, 0, status.getLen()));
  }

  private static List<FileExtent> extents(BlockLocation[] locations) throws IOException {
    List<FileExtent> extents = new ArrayList<>();
    for (BlockLocation location : locations) {
      extents.add(new FileExtent(location.getOffset(), location.getLength(), List.of(location.getHosts())));
    }
    return extents;
  }

  @Override
  public void readFully(String path, long position, byte[] buffer, int offset, int length)
      throws IOException {
    streams.of(path, p -> fs.open(resolve(p))).readFully(position, buffer, offset, length);
  }

  @Override
  public void release(String path) throws IOException {
    streams.release(path);
  }

  @Override
  public void close() throws IOException {
    streams.close();
  }
}
