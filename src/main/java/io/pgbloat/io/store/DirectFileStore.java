package io.pgbloat.io.store;

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
 * Reads must be aligned to the block size of the file system holding each file (a tablespace
 * may live on another one); block reads (8 kB multiples at 8 kB offsets) are, and go direct
 * through an aligned buffer per thread. Anything else (PG_VERSION, relation maps, a trailing
 * partial block) goes through {@code delegate}, and so does every read of a file whose file
 * system refuses O_DIRECT, at open (tmpfs) or at its first read: told apart from a real
 * failure by the same read succeeding buffered, not by the error's (localised) text.
 *
 * <p>A file streamed to a decoder ({@link #readStreamed}) is read direct too, 1 MB a read: the
 * thread that reads it ahead hides the wait, and no copy out of the page cache costs a core. A
 * driver's store ({@link #forStreams}) reads only such streams direct, and its blocks (a
 * catalog's, one at a time) buffered, where the kernel's readahead serves them.
 */
public final class DirectFileStore implements FileStore {
  /** The smallest alignment O_DIRECT asks for (a logical sector). */
  private static final int MIN_ALIGNMENT = 512;
  /** The alignment of {@link #allocate}'s buffers: a memory page, what file systems ask for at most. */
  private static final int BUFFER_ALIGNMENT = 4096;

  private final FileStore delegate;
  private final Path root;
  /** Per path: its O_DIRECT channel and alignment, or {@link #BUFFERED}. */
  private final Map<String, DirectFile> files = new HashMap<>();
  /**
   * Aligned buffers that reads into a heap array go through, shared by the threads reading: a
   * stream's thread lives only as long as its file, and a direct buffer is freed only when it is
   * collected. As many as reads run at once.
   */
  private final java.util.Queue<ByteBuffer> buffers = new java.util.concurrent.ConcurrentLinkedQueue<>();
  private boolean closed;
  /** Whether block reads go direct too, or only streams ({@link #forStreams}). */
  private final boolean blockReads;

  /** A file opened with O_DIRECT, and the alignment its file system needs. */
  private record DirectFile(FileChannel channel, int alignment) {}

  /** A file read through {@code delegate}: its file system has no O_DIRECT. */
  private static final DirectFile BUFFERED = new DirectFile(null, 0);

  private DirectFileStore(FileStore delegate, boolean blockReads) {
    java.net.URI uri = StorePaths.toUri(delegate.root());
    if (!"file".equals(uri.getScheme())) {
      throw new NotADataDirectoryException("Cannot use --direct-io on " + delegate.root()
          + ": O_DIRECT reads local files only; leave it out for " + uri.getScheme() + "://");
    }
    this.delegate = delegate;
    this.root = Path.of(uri);
    this.blockReads = blockReads;
  }

  /** Opens {@code delegate}'s root (which must be local) for direct reads: blocks and streams. */
  public static DirectFileStore open(FileStore delegate) {
    return new DirectFileStore(delegate, true);
  }

  /** Opens {@code delegate}'s root (which must be local) for direct streams, its blocks read buffered. */
  public static DirectFileStore forStreams(FileStore delegate) {
    return new DirectFileStore(delegate, false);
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
    if (blockReads) {
      readStreamed(path, position, buffer, offset, length);
    } else {
      delegate.readFully(path, position, buffer, offset, length);
    }
  }

  /** Direct when aligned, through one of the shared aligned buffers. */
  @Override
  public void readStreamed(String path, long position, byte[] buffer, int offset, int length) throws IOException {
    DirectFile file = direct(path, position, length);
    if (file == null) {
      delegate.readFully(path, position, buffer, offset, length);
      return;
    }
    ByteBuffer direct = buffer(length, file.alignment());
    try {
      if (readDirect(path, file, position, direct, () -> delegate.readFully(path, position, buffer, offset, length))) {
        direct.flip();
        direct.get(buffer, offset, length);
      }
    } finally {
      buffers.offer(direct);
    }
  }

  /** Straight into {@code buffer} when it is direct and aligned (one of {@link #allocate}'s). */
  @Override
  public void readFully(String path, long position, ByteBuffer buffer) throws IOException {
    if (!blockReads) {
      delegate.readFully(path, position, buffer);
      return;
    }
    DirectFile file = direct(path, position, buffer.remaining());
    if (file == null || !buffer.isDirect() || buffer.alignmentOffset(buffer.position(), file.alignment()) != 0) {
      FileStore.super.readFully(path, position, buffer);
      return;
    }
    readDirect(path, file, position, buffer.slice(buffer.position(), buffer.remaining()),
        () -> delegate.readFully(path, position, buffer));
  }

  /** Direct and aligned to {@link #BUFFER_ALIGNMENT}: read into with no copy. */
  @Override
  public ByteBuffer allocate(int bytes) {
    return blockReads ? ByteBuffer.allocateDirect(bytes + BUFFER_ALIGNMENT).alignedSlice(BUFFER_ALIGNMENT)
        .limit(bytes).slice() : delegate.allocate(bytes);
  }

  /** The file's O_DIRECT channel for this read, or null when the read must go buffered. */
  private DirectFile direct(String path, long position, int length) throws IOException {
    if (position % MIN_ALIGNMENT != 0 || length % MIN_ALIGNMENT != 0) {
      return null;
    }
    DirectFile file = file(path);
    return file == BUFFERED || position % file.alignment() != 0 || length % file.alignment() != 0 ? null : file;
  }

  /** A read through {@code delegate}, when O_DIRECT turns out not to work. */
  @FunctionalInterface
  private interface BufferedRead {
    void run() throws IOException;
  }

  /**
   * Fills {@code target} (from its position 0) with the bytes at {@code position}; true when it
   * was read with O_DIRECT, false when {@code instead} read them because the file system
   * refused (see {@link #readBufferedInstead}).
   */
  private boolean readDirect(String path, DirectFile file, long position, ByteBuffer target, BufferedRead instead)
      throws IOException {
    try {
      while (target.hasRemaining()) {
        int n = file.channel().read(target, position + target.position());
        if (n < 0) {
          throw new EOFException(root.resolve(path) + ": ends before byte " + (position + target.limit()));
        }
      }
      return true;
    } catch (java.nio.channels.ClosedChannelException e) {
      // interrupted or closed under it: not a file system without O_DIRECT; the channel is shut
      // for every thread, so the next read of the file opens it again
      forget(path, file);
      throw e;
    } catch (EOFException e) {
      throw e; // the file's end
    } catch (IOException e) {
      readBufferedInstead(path, file, e, instead);
      return false;
    }
  }

  /**
   * A direct read failed: if the same read succeeds buffered, the file system takes O_DIRECT at
   * open but not at read (EINVAL), and the file is read buffered from now on; if it fails too,
   * the failure is real and is thrown.
   */
  private void readBufferedInstead(String path, DirectFile file, IOException direct, BufferedRead instead)
      throws IOException {
    try {
      instead.run();
    } catch (IOException buffered) {
      buffered.addSuppressed(direct);
      throw buffered;
    }
    synchronized (files) {
      if (files.get(path) == file) {
        files.put(path, BUFFERED);
      }
    }
    file.channel().close();
  }

  /** Drops {@code file} for {@code path} (if it is still the one known), to be opened again. */
  private void forget(String path, DirectFile file) {
    synchronized (files) {
      files.remove(path, file);
    }
  }

  /** A shared buffer (or a new one), aligned to {@code alignment}, limited to {@code length} bytes; offered back after use. */
  private ByteBuffer buffer(int length, int alignment) {
    ByteBuffer b = buffers.poll();
    if (b == null || b.capacity() < length || b.alignmentOffset(0, alignment) != 0) {
      b = ByteBuffer.allocateDirect(length + alignment).alignedSlice(alignment); // one too small is dropped
    }
    b.clear();
    b.limit(length);
    return b;
  }

  /** The file opened with O_DIRECT, or {@link #BUFFERED} when its file system refuses O_DIRECT. */
  private DirectFile file(String path) throws IOException {
    synchronized (files) {
      if (closed) { // a thread still reading ahead must not open a file again
        throw new java.nio.channels.ClosedChannelException();
      }
      DirectFile known = files.get(path);
      if (known != null) {
        return known;
      }
      Path file = root.resolve(path);
      DirectFile opened;
      try {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
        opened = new DirectFile(channel, (int) Math.max(MIN_ALIGNMENT, Files.getFileStore(file).getBlockSize()));
      } catch (IOException direct) {
        // refused with O_DIRECT: if a plain open works, the flag was the problem (EINVAL on
        // tmpfs); if not, the file is missing, unreadable, or no descriptor is left, and the
        // caller reports that (and may retry)
        try (FileChannel plain = FileChannel.open(file, StandardOpenOption.READ)) {
          opened = BUFFERED;
        } catch (IOException e) {
          e.addSuppressed(direct);
          throw e;
        }
      }
      files.put(path, opened);
      return opened;
    }
  }

  @Override
  public void release(String path) throws IOException {
    DirectFile file;
    synchronized (files) {
      file = files.remove(path);
    }
    if (file != null && file != BUFFERED) {
      file.channel().close();
    }
    delegate.release(path);
  }

  @Override
  public void close() throws IOException {
    synchronized (files) {
      for (DirectFile file : files.values()) {
        if (file != BUFFERED) {
          file.channel().close();
        }
      }
      files.clear();
      closed = true;
    }
    delegate.close();
  }
}
