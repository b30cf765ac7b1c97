package io.pgbloat.io;

import com.sun.nio.file.ExtendedOpenOption;
import io.pgbloat.error.NotADataDirectoryException;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Local files read with O_DIRECT ({@code --direct-io}): past the page cache, so a sampled run
 * on a standby's disk does not evict the server's working set, and without kernel readahead.
 * Reads must be aligned to the file system's block size; block reads (8 kB multiples at 8 kB
 * offsets) are, and go direct through an aligned buffer per thread. Anything else (PG_VERSION,
 * relation maps, a trailing partial block) goes through {@code delegate}.
 */
public final class DirectFileStore implements FileStore {
  private final FileStore delegate;
  private final Path root;
  private final int alignment;
  private final Map<String, FileChannel> channels = new HashMap<>();
  private final ThreadLocal<ByteBuffer> buffers = new ThreadLocal<>();

  private DirectFileStore(FileStore delegate, Path root, int alignment) {
    this.delegate = delegate;
    this.root = root;
    this.alignment = alignment;
  }

  /** Opens {@code delegate}'s root (which must be local) for direct reads. */
  public static DirectFileStore open(FileStore delegate) throws IOException {
    java.net.URI uri = HadoopFileStore.toUri(delegate.root());
    if (!"file".equals(uri.getScheme())) {
      throw new NotADataDirectoryException("Cannot use --direct-io on " + delegate.root()
          + ": O_DIRECT reads local files only; leave it out for " + uri.getScheme() + "://");
    }
    Path root = Path.of(uri);
    int alignment = (int) Math.max(512, Files.getFileStore(root).getBlockSize());
    return new DirectFileStore(delegate, root, alignment);
  }

  @Override
  public String root() {
    return delegate.root();
  }

  @Override
  public long length(String path) throws IOException {
    return delegate.length(path);
  }

  @Override
  public boolean isDirectory(String path) throws IOException {
    return delegate.isDirectory(path);
  }

  @Override
  public List<String> list(String path) throws IOException {
    return delegate.list(path);
  }

  @Override
  public void readFully(String path, long position, byte[] buffer, int offset, int length) throws IOException {
    if (position % alignment != 0 || length % alignment != 0) {
      delegate.readFully(path, position, buffer, offset, length);
      return;
    }
    FileChannel channel = channel(path);
    if (channel == null) { // this file system has no O_DIRECT (tmpfs): read through the cache
      delegate.readFully(path, position, buffer, offset, length);
      return;
    }
    ByteBuffer direct = buffer(length);
    while (direct.hasRemaining()) {
      int n = channel.read(direct, position + direct.position());
      if (n < 0) {
        throw new EOFException(root.resolve(path) + ": ends before byte " + (position + length));
      }
    }
    direct.flip();
    direct.get(buffer, offset, length);
  }

  /** This thread's aligned buffer, limited to {@code length} bytes. */
  private ByteBuffer buffer(int length) {
    ByteBuffer b = buffers.get();
    if (b == null || b.capacity() < length) {
      b = ByteBuffer.allocateDirect(length + alignment).alignedSlice(alignment);
      buffers.set(b);
    }
    b.clear();
    b.limit(length);
    return b;
  }

  /** The file opened with O_DIRECT, or null when its file system refuses O_DIRECT. */
  private FileChannel channel(String path) throws IOException {
    synchronized (channels) {
      if (channels.containsKey(path)) {
        return channels.get(path);
      }
      FileChannel c;
      try {
        c = FileChannel.open(root.resolve(path), StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
      } catch (IOException e) {
        if (!Files.isReadable(root.resolve(path)) || !String.valueOf(e.getMessage()).contains("Invalid argument")) {
          throw e; // missing, unreadable, too many open files...: the caller reports it, and may retry
        }
        c = null; // EINVAL: this file system has no O_DIRECT (tmpfs); read this file through the cache
      }
      channels.put(path, c);
      return c;
    }
  }

  @Override
  public void close() throws IOException {
    synchronized (channels) {
      for (FileChannel c : channels.values()) {
        if (c != null) {
          c.close();
        }
      }
      channels.clear();
    }
    delegate.close();
  }
}
