package io.pgbloat.io.codec;

import io.pgbloat.io.read.IoSettings;
import io.pgbloat.io.store.FileStore;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * A compressed file read at rising offsets: decoded once from its start, the last
 * {@link #WINDOW} decoded bytes kept, so that a read may lie a little behind the last one (a
 * catalog's pages read twice, a read that ends where the next begins). A read before the window
 * decodes again from the start; a task avoids that by reading such a store in order, one read
 * in flight ({@link FileStore#decodesInOrder}).
 */
public final class DecodedFile implements java.io.Closeable {
  /** Twice the largest read a stream makes (B at most 256 blocks, 2 MB: IoSettings.MAX_COMBINE_LIMIT). */
  static final int WINDOW = 4 << 20;

  /** Opens the decoded stream from the file's start. */
  public interface Source {
    InputStream open() throws IOException;
  }

  private final String name;
  private final Source source;
  private final long size;
  private final boolean endsAtSize;
  private byte[] ring; // min(size, WINDOW) bytes, made at the first read
  private InputStream decoded;
  private long decodedUpTo; // bytes decoded so far; the ring holds the last min(decodedUpTo, WINDOW) of them

  /**
   * @param name the file, for messages
   * @param size its decoded length, as the backup's manifest or index says
   * @param endsAtSize whether the decoded stream ends there (a file compressed alone, not an
   *     archive whose last member is followed by the tar's trailer): a read that reaches it
   *     reads the decoder to its end, where the codec checks its checksum
   */
  public DecodedFile(String name, Source source, long size, boolean endsAtSize) {
    this.name = name;
    this.source = source;
    this.size = size;
    this.endsAtSize = endsAtSize;
  }

  /** Reads {@code length} decoded bytes at {@code position} into {@code buffer[offset...]}. */
  public synchronized void read(long position, byte[] buffer, int offset, int length) throws IOException {
    if (position < 0 || length > WINDOW || position + length > size) {
      throw new EOFException(name + ": " + length + " bytes at " + position + " of a file of " + size);
    }
    if (ring == null) {
      ring = new byte[(int) Math.min(size, WINDOW)];
    }
    int window = ring.length;
    if (decoded == null || position < decodedUpTo - Math.min(decodedUpTo, window)) {
      restart();
    }
    try {
      while (decodedUpTo < position + length) {
        int at = (int) (decodedUpTo % window);
        // never past position + window, which would overwrite the bytes asked for
        int n = decoded.read(ring, at, (int) Math.min(window - at, position + window - decodedUpTo));
        if (n < 0) {
          throw new EOFException(name + ": decodes to " + decodedUpTo + " bytes where the backup says " + size
              + ": it is truncated or damaged");
        }
        decodedUpTo += n;
      }
      if (endsAtSize && position + length == size && (decodedUpTo > size || decoded.read() >= 0)) {
        throw new IOException(name + ": decodes to more than the " + size + " bytes the backup says: it is damaged");
      }
    } catch (IOException | RuntimeException e) {
      close(); // a decoder that failed is not read on: the next read starts again from the start
      throw e;
    }
    for (int done = 0; done < length;) {
      int at = (int) ((position + done) % window);
      int n = Math.min(length - done, window - at);
      System.arraycopy(ring, at, buffer, offset + done, n);
      done += n;
    }
  }

  private void restart() throws IOException {
    close();
    decoded = source.open();
    decodedUpTo = 0;
  }

  @Override
  public synchronized void close() throws IOException {
    if (decoded != null) {
      decoded.close();
      decoded = null;
    }
  }
}
