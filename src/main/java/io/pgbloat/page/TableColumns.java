package io.pgbloat.page;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;

/**
 * A table's columns as a rewrite forms its rows anew, and the length a live tuple takes once
 * rewritten. VACUUM FULL and CLUSTER deform every live tuple and form it again with the
 * table's descriptor ({@code reform_and_rewrite_tuple}, {@code heapam_handler.c};
 * {@code heap_form_tuple} and {@code fill_val}, {@code src/backend/access/common/heaptuple.c};
 * the same 13-18), which changes a tuple's length in three ways:
 *
 * <ul>
 * <li>a dropped column's value is stored as a null;</li>
 * <li>an uncompressed inline varlena with a 4-byte header (VARATT_IS_4B_U) that would fit a
 * 1-byte one (VARATT_CAN_MAKE_SHORT: at most VARATT_SHORT_MAX bytes with it) in a packable
 * column (attstorage not 'p', VARLENA_ATT_IS_PACKABLE) is stored short, unaligned. A stored
 * tuple holds such a value where an expanded object was flattened into it (an array
 * {@code array_append} or {@code ||} or a PL/pgSQL assignment built): fill_val writes those
 * with their 4-byte header, aligned;</li>
 * <li>a tuple of fewer attributes than the table (columns added after it was written) gets
 * them all: nulls, which need a null bitmap, or attmissingval where atthasmissing, whose
 * width is not known here: such a tuple is taken at its length.</li>
 * </ul>
 *
 * Values stored short or out of line (a TOAST pointer, copied as it is) keep their length.
 *
 * @see HeapPageStats#itemBytes
 */
public final class TableColumns implements Serializable {
  private static final long serialVersionUID = 1L;

  /** VARATT_SHORT_MAX ({@code varatt.h}): the most bytes, header included, a 1-byte header describes. */
  static final int VARATT_SHORT_MAX = 0x7F;

  /**
   * One column as pg_attribute describes it.
   *
   * @param length attlen: bytes, {@link Attribute#VARLENA} for a varlena, {@link Attribute#CSTRING} for a cstring
   * @param align attalign
   * @param packable attstorage is not 'p' (plain): a short value is stored with a 1-byte header
   * @param dropped attisdropped
   * @param hasMissing atthasmissing: rows written before the column was added read attmissingval
   */
  public record Column(int length, char align, boolean packable, boolean dropped, boolean hasMissing)
      implements Serializable {}

  /**
   * No columns known: every tuple is taken at its length (a TOAST table, whose chunks a rewrite
   * copies as they are formed, or a table counted before its catalog is read).
   */
  public static final TableColumns AS_STORED = new TableColumns(List.of());

  private final int[] lengths;
  private final int[] alignments;
  private final boolean[] packable;
  private final boolean[] dropped;
  private final boolean[] hasMissing;
  /** Whether any column is dropped or a packable varlena: else only a tuple short of columns changes. */
  private final boolean reformable;

  /** The columns of attnum 1, 2, ... in order. */
  public TableColumns(List<Column> columns) {
    int n = columns.size();
    lengths = new int[n];
    alignments = new int[n];
    packable = new boolean[n];
    dropped = new boolean[n];
    hasMissing = new boolean[n];
    boolean any = false;
    for (int i = 0; i < n; i++) {
      Column c = columns.get(i);
      lengths[i] = c.length();
      alignments[i] = Attribute.alignment(c.align());
      packable[i] = c.packable() && c.length() == Attribute.VARLENA;
      dropped[i] = c.dropped();
      hasMissing[i] = c.hasMissing();
      any |= dropped[i] || packable[i];
    }
    reformable = any;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TableColumns c && Arrays.equals(lengths, c.lengths) && Arrays.equals(alignments, c.alignments)
        && Arrays.equals(packable, c.packable) && Arrays.equals(dropped, c.dropped)
        && Arrays.equals(hasMissing, c.hasMissing);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(lengths) + Arrays.hashCode(dropped);
  }

  /**
   * The columns in one line, equal for equal columns: per column its length, its alignment in
   * bytes, and p (packable), d (dropped), m (has a missing value) where they hold.
   */
  public String signature() {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < lengths.length; i++) {
      s.append(i == 0 ? "" : ",").append(lengths[i]).append(':').append(alignments[i]);
      s.append(packable[i] ? "p" : "").append(dropped[i] ? "d" : "").append(hasMissing[i] ? "m" : "");
    }
    return s.toString();
  }

  /** Whether a column is dropped: a rewrite stores its values as nulls. */
  public boolean hasDropped() {
    for (boolean d : dropped) {
      if (d) {
        return true;
      }
    }
    return false;
  }

  /**
   * The t_len of the tuple at {@code tuple} (lp_off) of length {@code len} (lp_len) once a
   * rewrite formed it again; {@code len} itself wherever that cannot be worked out (a tuple of
   * more attributes than the table, a value past its end, a column added with a default).
   */
  public int rewrittenLength(byte[] page, int tuple, int len) {
    int natts = HeapTupleHeader.natts(page, tuple);
    if (natts > lengths.length || (natts == lengths.length && !reformable)) {
      return len;
    }
    boolean hasNulls = (HeapTupleHeader.infomask(page, tuple) & HeapTupleHeader.HEAP_HASNULL) != 0;
    int bits = tuple + HeapTupleHeader.T_BITS_OFFSET;
    int end = tuple + len;
    int data = tuple + HeapTupleHeader.hoff(page, tuple);
    int off = 0;
    int rewritten = 0;
    boolean nulls = false;
    for (int att = 0; att < natts; att++) {
      if (hasNulls && Tuple.isNull(page, bits, att)) {
        nulls = true;
        continue;
      }
      int size;
      int written; // the value's size in the rewritten tuple; 0 when unaligned as it is
      if (lengths[att] == Attribute.VARLENA) {
        if (data + off >= end) {
          return len;
        }
        boolean shortHeader = page[data + off] != 0; // att_align_pointer: no pad byte before a short header
        if (!shortHeader) {
          off = Tuple.align(off, alignments[att]);
        }
        if (data + off >= end) {
          return len;
        }
        int first = page[data + off] & 0xFF;
        try {
          size = Tuple.varlenaSize(page, data + off, end);
        } catch (IllegalArgumentException e) {
          return len;
        }
        if (Tuple.isOneByteHeader(first)) {
          written = -size; // short or external: copied unaligned
        } else if (packable[att] && Tuple.isUncompressedFourByteHeader(first)
            && size - Tuple.VARHDRSZ + Tuple.VARHDRSZ_SHORT <= VARATT_SHORT_MAX) {
          written = -(size - Tuple.VARHDRSZ + Tuple.VARHDRSZ_SHORT);
        } else {
          written = size;
        }
      } else if (lengths[att] == Attribute.CSTRING) {
        int at = data + off;
        while (at < end && page[at] != 0) {
          at++;
        }
        size = at + 1 - (data + off);
        written = -size;
      } else {
        off = Tuple.align(off, alignments[att]);
        size = lengths[att];
        written = size;
      }
      off += size;
      if (data + off > end) {
        return len;
      }
      if (dropped[att]) {
        nulls = true;
      } else if (written < 0) {
        rewritten += -written;
      } else {
        rewritten = Tuple.align(rewritten, alignments[att]) + written;
      }
    }
    for (int att = natts; att < lengths.length; att++) {
      if (hasMissing[att] && !dropped[att]) {
        return len;
      }
      nulls = true;
    }
    int header = HeapTupleHeader.SIZEOF_HEAP_TUPLE_HEADER + (nulls ? (lengths.length + 7) / 8 : 0); // BITMAPLEN
    return PageHeader.maxAlign(header) + rewritten;
  }
}
