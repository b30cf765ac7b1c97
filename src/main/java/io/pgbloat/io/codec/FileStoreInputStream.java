package io.pgbloat.io.codec;

import io.pgbloat.io.store.FileStore;
import java.io.IOException;
import java.io.InputStream;

/** A span of one file of a {@link FileStore}, read in order as a stream (a decoder's input). */
public final class FileStoreInputStream extends InputStream {
  /** Bytes asked of the store at once: a read-ahead chunk, so that each of its reads is one. */
  private static final int CHUNK = ReadAheadInputStream.CHUNK;

  private final FileStore files;
  private final String path;
  private final long end;
  private long position;
  private final byte[] one = new byte[1];

  /** The {@code length} bytes of {@code path} from {@code offset}, read as the decoder asks (a small file's). */
  public FileStoreInputStream(FileStore files, String path, long offset, long length) {
    this.files = files;
    this.path = path;
    this.position = offset;
    this.end = offset + length;
  }

  /**
   * As the constructor, read ahead by a thread of its own named after {@code name} when longer
   * than a chunk of it: cold, the disk reads while the decoder decodes. It reads from the chunk
   * boundary at or before {@code offset} (a pgBackRest bundle's file starts anywhere), so every
   * read but the last is a whole chunk at a multiple of one: aligned as O_DIRECT needs
   * ({@link FileStore#readStreamed}).
   */
  public static InputStream readAhead(FileStore files, String path, long offset, long length, String name)
      throws IOException {
    if (length <= CHUNK) {
      return new FileStoreInputStream(files, path, offset, length);
    }
    int lead = (int) (offset % CHUNK);
    InputStream in = new ReadAheadInputStream(new FileStoreInputStream(files, path, offset - lead, length + lead), name);
    try {
      in.skipNBytes(lead);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
    return in;
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
    files.readStreamed(path, position, buffer, offset, n);
    position += n;
    return n;
  }
}
