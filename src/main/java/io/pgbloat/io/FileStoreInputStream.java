package io.pgbloat.io;

import java.io.IOException;
import java.io.InputStream;

/** A span of one file of a {@link FileStore}, read in order as a stream (a decoder's input). */
final class FileStoreInputStream extends InputStream {
  /** Bytes asked of the store at once. */
  private static final int CHUNK = 1 << 20;

  private final FileStore files;
  private final String path;
  private final long end;
  private long position;
  private final byte[] one = new byte[1];

  /** The {@code length} bytes of {@code path} from {@code offset}. */
  FileStoreInputStream(FileStore files, String path, long offset, long length) {
    this.files = files.forStreaming();
    this.path = path;
    this.position = offset;
    this.end = offset + length;
  }

  @Override
  public int read() throws IOException {
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    if (position >= end) {
      return -1;
    }
    int n = (int) Math.min(Math.min(length, CHUNK), end - position);
    files.readFully(path, position, buffer, offset, n);
    position += n;
    return n;
  }
}
