package io.pgbloat.io.read;

import io.pgbloat.io.store.FileStore;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The read buffers of one task's streams, handed from each stream to the next: a buffer of the
 * file store's own kind (direct and aligned, for O_DIRECT) costs far more to make than to
 * reuse, and direct memory is given back only by the garbage collector. Used by the task's
 * thread alone; at most one stream's worth is kept.
 */
final class ReadBuffers {
  private final FileStore files;
  private final Deque<ByteBuffer> free = new ArrayDeque<>();

  ReadBuffers(FileStore files) {
    this.files = files;
  }

  /** A buffer of at least {@code bytes}: a free one large enough (smaller ones are dropped), or a new one. */
  ByteBuffer take(int bytes) {
    while (!free.isEmpty()) {
      ByteBuffer buffer = free.pop();
      if (buffer.capacity() >= bytes) {
        return buffer;
      }
    }
    return files.allocate(bytes);
  }

  /** Back for the next stream: no read may be writing into it any more. */
  void give(ByteBuffer buffer) {
    free.push(buffer);
  }
}
