package io.pgbloat.page;

import java.io.Serializable;

/**
 * The metapage figures PostgreSQL's functions report for a hash index (pgstathashindex's
 * version) and a GIN index (pgstatginindex's version, pending_pages, pending_tuples).
 *
 * @param version hashm_version or ginVersion
 * @param pendingPages GIN: nPendingPages; 0 otherwise
 * @param pendingTuples GIN: nPendingHeapTuples; 0 otherwise
 */
public record IndexMetapage(long version, long pendingPages, long pendingTuples) implements Serializable {

  /** The metapage of an index of access method {@code am}, or null where it has none reported. */
  public static IndexMetapage of(IndexAccessMethod am, byte[] page) {
    return switch (am) {
      case HASH -> {
        int[] meta = HashPage.metapage(page);
        yield meta == null ? null : new IndexMetapage(meta[0], 0, 0);
      }
      case GIN -> {
        long[] meta = GinPage.metapage(page);
        yield new IndexMetapage(meta[0], meta[1], meta[2]);
      }
      default -> null;
    };
  }
}
