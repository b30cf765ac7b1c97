package io.pgbloat.io.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store whose lengths and directories are answered from one listing per directory.
 * On a remote store every question is a round trip (an RPC to a name node, an HTTP request to
 * an object store, and two for a file that is not there), and planning asks one for every
 * segment and fork of every relation, and for each next segment it probes; a listing answers a
 * directory's files at once, a thousand or so a request. A data directory this tool reads is a
 * copy that does not change while it is read, so a listing, once made, stays true.
 */
public final class ListedFileStore implements FileStore {
  private final FileStore files;
  /** Each directory listed so far: its entries by name, sorted. */
  private final Map<String, Map<String, DirectoryEntry>> listings = new ConcurrentHashMap<>();

  public ListedFileStore(FileStore files) {
    this.files = files;
  }

  private Map<String, DirectoryEntry> listing(String dir) throws IOException {
    try {
      return listings.computeIfAbsent(dir, d -> {
        Map<String, DirectoryEntry> byName = new TreeMap<>();
        try {
          files.entries(d).forEach(e -> byName.put(e.name(), e));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        return byName;
      });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** {@code path}'s entry in its directory's listing; null when it is not there. The root has none. */
  private DirectoryEntry entry(String path) throws IOException {
    int slash = path.lastIndexOf('/');
    return listing(slash < 0 ? "" : path.substring(0, slash)).get(path.substring(slash + 1));
  }

  @Override
  public String root() {
    return files.root();
  }

  @Override
  public long length(String path) throws IOException {
    if (path.isEmpty()) {
      return files.length(path);
    }
    DirectoryEntry e = entry(path);
    return e == null || e.directory() ? -1 : e.length();
  }

  @Override
  public boolean isDirectory(String path) throws IOException {
    if (path.isEmpty()) {
      return files.isDirectory(path);
    }
    DirectoryEntry e = entry(path);
    return e != null && e.directory();
  }

  @Override
  public List<String> list(String path) throws IOException {
    return new ArrayList<>(listing(path).keySet());
  }

  @Override
  public List<DirectoryEntry> entries(String path) throws IOException {
    return new ArrayList<>(listing(path).values());
  }

  @Override
  public List<FileExtent> extents(String path) throws IOException {
    return files.extents(path);
  }

  @Override
  public void readFully(String path, long position, byte[] buffer, int offset, int length) throws IOException {
    files.readFully(path, position, buffer, offset, length);
  }

  @Override
  public void readFully(String path, long position, ByteBuffer buffer) throws IOException {
    files.readFully(path, position, buffer);
  }

  @Override
  public ByteBuffer allocate(int bytes) {
    return files.allocate(bytes);
  }

  @Override
  public void readStreamed(String path, long position, byte[] buffer, int offset, int length) throws IOException {
    files.readStreamed(path, position, buffer, offset, length);
  }

  @Override
  public int readsInFlight() {
    return files.readsInFlight();
  }

  @Override
  public void knowLength(String path, long bytes) {
    files.knowLength(path, bytes);
  }

  @Override
  public StoreRequests requests() {
    return files.requests();
  }

  @Override
  public void release(String path) throws IOException {
    files.release(path);
  }

  @Override
  public void close() throws IOException {
    files.close();
  }
}
