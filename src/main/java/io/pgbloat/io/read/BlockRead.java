package io.pgbloat.io.read;

import io.pgbloat.page.PageHeader;
import java.nio.ByteBuffer;

/**
 * One block handed back by a {@link PrefetchStream}: its bytes, or why they could not be read.
 *
 * @param block the block number within the relation fork
 * @param buffer holds the page at {@code offset} (valid until the stream's next call), or null
 * @param offset where the page starts in {@code buffer}
 * @param failure why the block could not be read, or null
 */
public record BlockRead(long block, ByteBuffer buffer, int offset, String failure) {
  /** Copies the page into {@code page}, which outlives the stream's buffer. */
  public void copyTo(byte[] page) {
    buffer.get(offset, page, 0, PageHeader.BLCKSZ);
  }
}
