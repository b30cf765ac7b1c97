package io.pgbloat.io.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Read-only access to the files of one data directory, addressed by paths relative to its
 * root ("global/pg_control", "base/5/1259.1"). The tool never writes through it.
 */
public interface FileStore extends AutoCloseable {
  /** The root, as the user gave it (for messages). */
  String root();

  /** Length in bytes of {@code path}, or -1 when it does not exist. */
  long length(String path) throws IOException;

  /** Whether {@code path} exists and is a directory. */
  boolean isDirectory(String path) throws IOException;

  /** Names (not paths) of the entries of directory {@code path}; empty when it does not exist. */
  List<String> list(String path) throws IOException;

  /**
   * The entries of directory {@code path}, each file with its length; empty when it does not
   * exist. A store that lists lengths with names ({@link HadoopFileStore}) answers in one
   * listing; this default asks each entry's length on its own.
   */
  default List<DirectoryEntry> entries(String path) throws IOException {
    List<DirectoryEntry> entries = new java.util.ArrayList<>();
    for (String name : list(path)) {
      String child = path.isEmpty() ? name : path + "/" + name;
      boolean directory = isDirectory(child);
      entries.add(new DirectoryEntry(name, directory, directory ? -1 : length(child)));
    }
    return entries;
  }

  /**
   * Reads exactly {@code length} bytes of {@code path} at {@code position} into
   * {@code buffer[offset...]}.
   *
   * @throws java.io.EOFException when the file ends before
   */
  void readFully(String path, long position, byte[] buffer, int offset, int length) throws IOException;

  /**
   * Reads exactly {@code buffer.remaining()} bytes of {@code path} at {@code position} into
   * {@code buffer} from its position (which it leaves where it was). A buffer from
   * {@link #allocate} is filled with no copy where the store can; any other one is copied.
   *
   * @throws java.io.EOFException when the file ends before
   */
  default void readFully(String path, long position, ByteBuffer buffer) throws IOException {
    if (buffer.hasArray()) {
      readFully(path, position, buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
    } else {
      byte[] bytes = new byte[buffer.remaining()];
      readFully(path, position, bytes, 0, bytes.length);
      buffer.put(buffer.position(), bytes);
    }
  }

  /** A buffer of {@code bytes} that {@link #readFully(String, long, ByteBuffer)} fills best. */
  default ByteBuffer allocate(int bytes) {
    return ByteBuffer.allocate(bytes);
  }

  /**
   * Reads as {@link #readFully(String, long, byte[], int, int)} does, for a file read from start
   * to end as a decoder's input (a codec's {@code FileStoreInputStream}): a long one by a thread of its own
   * reading ahead, which hides an O_DIRECT read's wait, so a store reading past the page cache
   * reads these direct even where it reads blocks buffered ({@link DirectFileStore#forStreams});
   * a short one (a chunk or less) by its reader, in one read.
   */
  default void readStreamed(String path, long position, byte[] buffer, int offset, int length) throws IOException {
    readFully(path, position, buffer, offset, length);
  }

  /**
   * Where the bytes of {@code path} live: (offset, length, hosts) per storage block, for data
   * locality. Empty when the file system has no notion of it (local files).
   */
  default List<FileExtent> extents(String path) throws IOException {
    return List.of();
  }

  /**
   * Tells the store that {@code path} holds at least {@code bytes}, as the plan measured it, so
   * that a store which asks a file's length before its first read (an object store's) need not
   * ask; it reads no further than that. The default ignores it.
   */
  default void knowLength(String path, long bytes) {}

  /**
   * Closes whatever this store keeps open of {@code path}; a later read opens it again. A scan
   * releases a relation's files when it moves past the relation, so the files open at once stay
   * bounded whatever the number of relations.
   */
  default void release(String path) throws IOException {}

  /**
   * Whether this store decodes files as they are read (a compressed backup's), so that they must
   * be read in order, one read in flight: reads finishing out of order would send the decoder
   * back to the file's start.
   */
  default boolean decodesInOrder() {
    return false;
  }

  /**
   * The index a backup's store was read from, for a task to reopen it with ({@link StoreAddress});
   * null for a directory.
   */
  default BackupIndex backupIndex() {
    return null;
  }

  /**
   * How many independent reads of small files (visibility maps) are worth having in flight at
   * once ({@link ConcurrentReads}): 1 where a read is served at once (a local disk, its page
   * cache), more where each read is a round trip that many in flight hide.
   */
  default int readsInFlight() {
    return 1;
  }

  /** The requests this store has sent to a remote file system so far ({@link StoreRequests#NONE} for local files). */
  default StoreRequests requests() {
    return StoreRequests.NONE;
  }

  /** Reads a whole (small) file. */
  default byte[] readAll(String path) throws IOException {
    long len = length(path);
    if (len < 0) {
      throw new java.io.FileNotFoundException(root() + "/" + path);
    }
    if (len > Integer.MAX_VALUE - 8) {
      throw new IOException("file too large to read whole: " + root() + "/" + path);
    }
    byte[] bytes = new byte[(int) len];
    readFully(path, 0, bytes, 0, bytes.length);
    return bytes;
  }

  @Override
  void close() throws IOException;
}
