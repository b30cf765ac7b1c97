package io.pgbloat.io.store;

import io.pgbloat.error.NotADataDirectoryException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.UnsupportedFileSystemException;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSupport;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;
import org.apache.hadoop.util.functional.FutureIO;

/**
 * A {@link FileStore} over Hadoop's {@link FileSystem}: {@code file://}, {@code hdfs://} and
 * any other scheme Hadoop knows. Local files are read through the raw local file system:
 * the checksummed wrapper would look for {@code .crc} side files that a data directory never
 * has. Open streams are kept per file until it is released or the store closed; reads from
 * several threads run side by side, on an object store each on a stream of its own.
 */
public final class HadoopFileStore implements FileStore {
  /**
   * The independent small reads worth having in flight on a remote store: enough to hide a
   * round trip of tens of milliseconds behind the others, few enough that a store throttling
   * one client (S3's requests per prefix) is not pressed.
   */
  static final int REMOTE_READS_IN_FLIGHT = 16;

  private final String root;
  private final Path rootPath;
  private final FileSystem fs;
  /**
   * The file system made for this store alone (an object store's, or one whose scheme's cache is
   * disabled), closed with it; else null.
   */
  private final FileSystem owned;
  /** What a failure of the store means, in a line naming what to fix. */
  private final StoreFailures failures;
  /**
   * Whether this is an object store's ({@link StoreConnector}): its streams read one positional
   * read at a time, so reads of a file in flight each take a stream of {@link #pooled}.
   */
  private final boolean objectStore;
  /** One stream per file, whose positional reads run side by side (HDFS's, a local file's). */
  private final OpenFiles<FSDataInputStream> streams = new OpenFiles<>(in -> true);
  /** An object store's streams, one per read in flight. */
  private final StreamPool<FSDataInputStream> pooled = new StreamPool<>();
  /** Each directory's files' block hosts, from one located listing ({@link #extents}). */
  private final Map<String, Map<String, List<FileExtent>>> located = new ConcurrentHashMap<>();
  /** Each object's length, from the listing that named it or asked once, for all its streams. */
  private final Map<String, Long> lengths = new ConcurrentHashMap<>();

  /**
   * GET requests this store's streams sent, counted on each stream as it reads (a stream's counts
   * join its file system's only when it is closed).
   */
  private final AtomicLong gets = new AtomicLong();

  private HadoopFileStore(String root, Path rootPath, FileSystem fs, FileSystem owned, boolean objectStore) {
    this.root = root;
    this.rootPath = rootPath;
    this.fs = fs;
    this.owned = owned;
    this.objectStore = objectStore;
    this.failures = new StoreFailures(root, rootPath.toUri(), fs.getConf()); // S3A's: with its bucket's own settings
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
    StoreFailures failures = new StoreFailures(root, uri, conf);
    boolean objectStore = StoreConnector.of(uri.getScheme()).isPresent();
    FileSystem opened;
    try {
      // an object store's file system is this store's own, so that its counts are this store's
      // requests and its settings this run's (the JVM's cache keeps the first settings a bucket had)
      opened = objectStore ? FileSystem.newInstance(uri, conf) : FileSystem.get(uri, conf);
    } catch (UnsupportedFileSystemException e) {
      throw unserved(root, uri);
    } catch (IOException e) {
      throw failures.check(e, "");
    } catch (RuntimeException e) {
      if (e.getCause() instanceof ClassNotFoundException) {
        throw unserved(root, uri); // core-default.xml names the scheme's class (fs.s3a.impl, ...), absent here
      }
      if (e instanceof IllegalArgumentException) { // what the connector will not take of the URI (S3A: a key in it)
        throw new NotADataDirectoryException(failures.shown("Cannot open data directory " + root + ": "
            + e.getMessage()));
      }
      throw e;
    }
    // an object store's is made for this store; otherwise FileSystem.get's own rule: with its
    // scheme's cache disabled, a file system is made for each call
    FileSystem owned = objectStore || conf.getBoolean("fs." + uri.getScheme() + ".impl.disable.cache", false)
        ? opened : null;
    FileSystem fs = opened instanceof LocalFileSystem local ? local.getRaw() : opened;
    return new HadoopFileStore(root, rootPath, fs, owned, objectStore);
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
    } catch (IOException e) {
      throw failures.check(e, path);
    }
  }

  @Override
  public boolean isDirectory(String path) throws IOException {
    try {
      return fs.getFileStatus(resolve(path)).isDirectory();
    } catch (FileNotFoundException e) {
      return false;
    } catch (IOException e) {
      throw failures.check(e, path);
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
    } catch (IOException e) {
      throw failures.check(e, path);
    }
    return names;
  }

  /** One listing of {@code path}. */
  @Override
  public List<DirectoryEntry> entries(String path) throws IOException {
    List<DirectoryEntry> entries = new ArrayList<>();
    try {
      for (FileStatus status : fs.listStatus(resolve(path))) {
        String name = status.getPath().getName();
        entries.add(new DirectoryEntry(name, status.isDirectory(), status.isFile() ? status.getLen() : -1));
        if (objectStore && status.isFile()) {
          lengths.put(path.isEmpty() ? name : path + "/" + name, status.getLen());
        }
      }
    } catch (FileNotFoundException e) {
      // an absent directory has no entries
    } catch (IOException e) {
      throw failures.check(e, path);
    }
    return entries;
  }

  /**
   * The sum of {@code counters} in what {@code source} (a file system, a stream) counted of its
   * requests, by the names Hadoop gives them ({@link StoreStatisticNames}); 0 where it counts none.
   */
  private static long counted(Object source, String... counters) {
    IOStatistics statistics = IOStatisticsSupport.retrieveIOStatistics(source);
    if (statistics == null) {
      return 0;
    }
    long sum = 0;
    for (String counter : counters) {
      Long n = statistics.counters().get(counter);
      sum += n == null ? 0 : n;
    }
    return sum;
  }

  /**
   * Whether this file system's block hosts say where to run: HDFS's do; a local file system has
   * one host, and an object store's connector names a made-up one for every object.
   */
  private boolean hasHosts() {
    return !(fs instanceof RawLocalFileSystem) && !objectStore;
  }

  /**
   * From one located listing of {@code path}'s directory, which carries every file's block
   * hosts, so that the locality lookup asks once per directory rather than once per file.
   */
  @Override
  public List<FileExtent> extents(String path) throws IOException {
    if (!hasHosts()) {
      return List.of();
    }
    int slash = path.lastIndexOf('/');
    String dir = slash < 0 ? "" : path.substring(0, slash);
    Map<String, List<FileExtent>> listed = located.get(dir);
    if (listed == null) {
      listed = new HashMap<>();
      try {
        RemoteIterator<LocatedFileStatus> listing = fs.listLocatedStatus(resolve(dir));
        while (listing.hasNext()) {
          LocatedFileStatus status = listing.next();
          listed.put(status.getPath().getName(), extents(status.getBlockLocations()));
        }
      } catch (FileNotFoundException e) {
        // an absent directory holds no blocks
      } catch (IOException e) {
        throw failures.check(e, dir);
      }
      located.put(dir, listed);
    }
    return listed.getOrDefault(path.substring(slash + 1), List.of());
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
    try {
      if (!objectStore) {
        streams.of(path, p -> fs.open(resolve(p))).readFully(position, buffer, offset, length);
        return;
      }
      FSDataInputStream in = pooled.borrow(path, this::openForRandomReads);
      long getsBefore = counted(in, StoreStatisticNames.ACTION_HTTP_GET_REQUEST);
      try {
        in.readFully(position, buffer, offset, length);
      } catch (IOException | RuntimeException e) {
        in.close(); // a stream that failed is not lent again
        throw e;
      } finally {
        gets.addAndGet(counted(in, StoreStatisticNames.ACTION_HTTP_GET_REQUEST) - getsBefore);
      }
      pooled.giveBack(path, in);
    } catch (IOException e) {
      throw failures.check(e, path);
    }
  }

  /**
   * An object's stream for reads at random places, each a ranged request of its own, rather than
   * one request to the object's end that each seek breaks off; the object's length taken from
   * the listing that named it, or else asked once for all its streams.
   */
  private FSDataInputStream openForRandomReads(String path) throws IOException {
    Long length = lengths.get(path);
    if (length == null) {
      length = fs.getFileStatus(resolve(path)).getLen();
      lengths.put(path, length);
    }
    return FutureIO.awaitFuture(fs.openFile(resolve(path))
        .opt(Options.OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY,
            Options.OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY_RANDOM)
        .optLong(Options.OpenFileOptions.FS_OPTION_OPENFILE_LENGTH, length)
        .build());
  }

  /** Several on a remote store (an object store's, HDFS), one on a local file system's. */
  @Override
  public int readsInFlight() {
    return fs instanceof RawLocalFileSystem ? 1 : REMOTE_READS_IN_FLIGHT;
  }

  /** An object's length as the plan measured it: its first read asks none (the connector reads no further). */
  @Override
  public void knowLength(String path, long bytes) {
    if (objectStore) {
      lengths.putIfAbsent(path, bytes);
    }
  }

  /** This store's file system's listing pages and HEAD requests, and its streams' GETs; none but an object store's. */
  @Override
  public StoreRequests requests() {
    if (!objectStore) {
      return StoreRequests.NONE;
    }
    return new StoreRequests(counted(fs, StoreStatisticNames.OBJECT_LIST_REQUEST,
        StoreStatisticNames.OBJECT_CONTINUE_LIST_REQUEST), counted(fs, StoreStatisticNames.ACTION_HTTP_HEAD_REQUEST),
        gets.get());
  }

  @Override
  public void release(String path) throws IOException {
    try {
      streams.release(path);
    } finally {
      pooled.release(path);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      streams.close();
    } finally {
      try {
        pooled.close();
      } finally {
        if (owned != null) {
          owned.close();
        }
      }
    }
  }
}
