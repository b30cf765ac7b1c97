package io.pgbloat.io.store;

import io.pgbloat.error.NotADataDirectoryException;
import java.io.EOFException;
import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.List;

/**
 * A {@link FileStore} over a local directory (a plain path or a {@code file:} URI), read with
 * the JDK's own file channels. Hadoop's local file system reads the same files, but its first
 * use sets up logging and a user's identity: a serial start before the first byte is read, on a
 * run that may need nothing else of Hadoop (a compressed backup counted in the driver). Links
 * are followed, as {@code pg_tblspc}'s are meant to be. Open channels are kept per file until
 * {@link #release} or {@link #close()}; positional reads on them are safe from several threads.
 */
public final class LocalFileStore implements FileStore {
  private final String root;
  private final Path rootPath;
  /** Reopened when an interrupted read shut one: that shuts a channel for every thread. */
  private final OpenFiles<FileChannel> channels = new OpenFiles<>(FileChannel::isOpen);

  private LocalFileStore(String root, Path rootPath) {
    this.root = root;
    this.rootPath = rootPath;
  }

  /** Opens the local directory {@code root}: a path, or a {@code file:} URI. */
  public static LocalFileStore open(String root) {
    try {
      return new LocalFileStore(root, Path.of(StorePaths.toUri(root)));
    } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
      throw new NotADataDirectoryException("Cannot open data directory " + root + ": not a valid path or URI ("
          + e.getMessage() + ")");
    }
  }

  @Override
  public String root() {
    return root;
  }

  private Path resolve(String path) {
    return path.isEmpty() ? rootPath : rootPath.resolve(path);
  }

  @Override
  public long length(String path) throws IOException {
    try {
      BasicFileAttributes attributes = Files.readAttributes(resolve(path), BasicFileAttributes.class);
      return attributes.isRegularFile() ? attributes.size() : -1;
    } catch (NoSuchFileException e) { // a file removed meanwhile (a live copy's) is no file
      return -1;
    }
  }

  @Override
  public boolean isDirectory(String path) {
    return Files.isDirectory(resolve(path));
  }

  /**
   * In the directory's own order, as Hadoop's local file system lists it, and as it does leaving
   * out an entry gone meanwhile or a link to nothing.
   */
  @Override
  public List<String> list(String path) throws IOException {
    File dir = resolve(path).toFile();
    String[] names = dir.list();
    if (names == null && dir.isDirectory()) {
      throw new IOException("Cannot list " + dir + ": permission denied or an I/O error");
    }
    return names == null ? List.of() : Arrays.stream(names).filter(n -> new File(dir, n).exists()).toList();
  }

  @Override
  public void readFully(String path, long position, byte[] buffer, int offset, int length) throws IOException {
    readFully(path, position, ByteBuffer.wrap(buffer, offset, length));
  }

  @Override
  public void readFully(String path, long position, ByteBuffer buffer) throws IOException {
    FileChannel channel = channels.of(path, this::openChannel);
    ByteBuffer target = buffer.slice(buffer.position(), buffer.remaining());
    while (target.hasRemaining()) {
      if (channel.read(target, position + target.position()) < 0) {
        throw new EOFException(resolve(path) + ": ends before byte " + (position + target.limit()));
      }
    }
  }

  private FileChannel openChannel(String path) throws IOException {
    try {
      return FileChannel.open(resolve(path), StandardOpenOption.READ);
    } catch (NoSuchFileException e) {
      throw new FileNotFoundException(resolve(path) + " does not exist");
    } catch (java.nio.file.AccessDeniedException e) {
      throw new FileNotFoundException(resolve(path) + " (Permission denied)");
    }
  }

  @Override
  public void release(String path) throws IOException {
    channels.release(path);
  }

  @Override
  public void close() throws IOException {
    channels.close();
  }
}
