package io.pgbloat.page;

import java.io.Serializable;

/**
 * A page's live tuples counted as the chunks of a TOAST table ({@code src/include/access/heaptoast.h},
 * {@code src/backend/access/common/toast_internals.c}): toast_save_datum cuts a value into
 * chunk_seq 0, 1, … of TOAST_MAX_CHUNK_SIZE bytes (tuples of t_len EXTERN_TUPLE_MAX_SIZE), the
 * last one shorter. A short chunk's chunk_seq is the number of full chunks of its value, which
 * is what the packing of a rewritten TOAST table depends on ({@code stats.ToastRewrite}).
 * Counted only on the pages of TOAST tables ({@link HeapPage}); {@link #NONE} elsewhere.
 *
 * @param full tuples of t_len EXTERN_TUPLE_MAX_SIZE: full chunks
 * @param lastOfOne short chunks with chunk_seq 0: values of one chunk
 * @param lastOfTwo short chunks with chunk_seq 1: values of two chunks
 * @param lastOfThree short chunks with chunk_seq 2: values of three chunks
 */
public record ToastChunks(int full, int lastOfOne, int lastOfTwo, int lastOfThree) implements Serializable {
  /** No chunk at all. */
  public static final ToastChunks NONE = new ToastChunks(0, 0, 0, 0);

  /**
   * EXTERN_TUPLE_MAX_SIZE ({@code heaptoast.h}): MaximumBytesPerTuple(4) =
   * MAXALIGN_DOWN((BLCKSZ − MAXALIGN(SizeOfPageHeaderData + 4 × sizeof(ItemIdData))) / 4) = 2032,
   * the t_len of a chunk holding TOAST_MAX_CHUNK_SIZE (1996) bytes: four fill a page.
   */
  public static final int EXTERN_TUPLE_MAX_SIZE = PageHeader.maxAlignDown(
      (PageHeader.BLCKSZ - PageHeader.maxAlign(PageHeader.SIZE_OF_PAGE_HEADER_DATA + 4 * ItemId.SIZE_OF_ITEM_ID_DATA))
          / 4);
  /** chunk_seq follows chunk_id (an oid) at t_hoff. */
  private static final int CHUNK_SEQ_OFFSET = 4;

  /** {@link #kind}: a full chunk. */
  static final int FULL = 3;
  /** {@link #kind}: neither a full chunk nor a short one of chunk_seq 0, 1 or 2. */
  static final int OTHER = -1;

  /**
   * The attributes of every chunk: chunk_id, chunk_seq, chunk_data (toast_save_datum forms each
   * chunk with the TOAST table's three columns). A tuple with another number is no chunk.
   */
  static final int CHUNK_ATTRIBUTES = 3;

  /**
   * What the live tuple at {@code tuple} of {@code len} bytes (its bounds already checked) is
   * as a chunk: {@link #FULL}, its chunk_seq 0, 1 or 2 when short, else {@link #OTHER}.
   */
  static int kind(byte[] page, int tuple, int len) {
    if (len == EXTERN_TUPLE_MAX_SIZE) {
      return FULL;
    }
    int seqAt = tuple + HeapTupleHeader.hoff(page, tuple) + CHUNK_SEQ_OFFSET;
    if (seqAt + 4 > tuple + len) {
      return OTHER;
    }
    int seq = LittleEndian.int32(page, seqAt);
    return seq >= 0 && seq < FULL ? seq : OTHER;
  }

  /** The counts, or {@link #NONE} when all are zero (most pages of most tables: no allocation). */
  static ToastChunks of(int full, int lastOfOne, int lastOfTwo, int lastOfThree) {
    return (full | lastOfOne | lastOfTwo | lastOfThree) == 0 ? NONE : new ToastChunks(full, lastOfOne, lastOfTwo, lastOfThree);
  }
}
