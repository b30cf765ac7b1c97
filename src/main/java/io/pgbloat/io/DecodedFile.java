package io.pgbloat.io;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * A compressed file read at (mostly) rising offsets: decoded once from its start, with the last
 * {@link #WINDOW} decoded bytes kept, so the reads of a prefetch stream, which finish out of
 * order, are served from one pass. A read before the window decodes again from the start.
 */
final class DecodedFile implements AutoCloseable {
  /**
   * Twice what one stream keeps in flight at most by default (IoSettings'
   * DEFAULT_IN_FLIGHT_BLOCKS, 8 MB): every read a stream has issued but not finished lies inside.
   */
  static final int WINDOW = 16 << 20;

  /** Opens the decoded stream from the file's start. */
  interface Source {
    InputStream open() throws IOException;
  }

  private final String name;
  private final Source source;
  private final long size;
  private final byte[] ring = new byte[WINDOW];
  private InputStream decoded;
  private long decodedUpTo; // bytes decoded so far; the ring holds the last min(decodedUpTo, WINDOW) of them

  /**
   * @param name the file, for messages
   * @param size its decoded length, as the backup's manifest or index says
   */
  DecodedFile(String name, Source source, long size) {
    this.name = name;
    this.source = source;
    this.size = size;
  }

  /** Reads {@code length} decoded bytes at {@code position} into {@code buffer[offset...]}. */
  synchronized void read(long position, byte[] buffer, int offset, int length) throws IOException {
    if (position < 0 || length > WINDOW || position + length > size) {
      throw new EOFException(name + ": " + length + " bytes at " + position + " of a file of " + size);
    }
    if (decoded == null || position < decodedUpTo - Math.min(decodedUpTo, WINDOW)) {
      restart();
    }
    while (decodedUpTo < position + length) {
      int at = (int) (decodedUpTo % WINDOW);
      // never past position + WINDOW, which would overwrite the bytes asked for
      int n = decoded.read(ring, at, (int) Math.min(WINDOW - at, position + WINDOW - decodedUpTo));
      if (n < 0) {
        throw new EOFException(name + ": decodes to " + decodedUpTo + " bytes where the backup says " + size
            + ": it is truncated or damaged");
      }
      decodedUpTo += n;
    }
    for (int done = 0; done < length;) {
      int at = (int) ((position + done) % WINDOW);
      int n = Math.min(length - done, WINDOW - at);
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
