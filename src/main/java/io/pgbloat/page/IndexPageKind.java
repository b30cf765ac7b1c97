package io.pgbloat.page;

/** What an index page is, by its access method's own flags; one list for every method. */
public enum IndexPageKind {
  /** All zero: never written, or left by a crash while extending (PageIsNew). */
  NEW,
  /** Failed the checks: not counted. */
  BAD,
  /** The metapage (hash, GIN, SP-GiST, BRIN block 0). */
  META,
  /** Hash: a bucket's primary page. */
  BUCKET,
  /** Hash: a page chained to a bucket. */
  OVERFLOW,
  /** Hash: a page of the free-overflow-page bitmap. */
  BITMAP,
  /** Hash: a page allocated and not in use. */
  UNUSED,
  /** GiST, SP-GiST: a leaf page. */
  LEAF,
  /** GiST, SP-GiST: an inner page. */
  INNER,
  /** GiST, GIN: a page deleted by VACUUM, to be recycled. */
  DELETED,
  /** GIN: a leaf page of the entry tree. */
  ENTRY_LEAF,
  /** GIN: an inner page of the entry tree. */
  ENTRY_INNER,
  /** GIN: a leaf page of a posting tree. */
  POSTING_LEAF,
  /** GIN: an inner page of a posting tree. */
  POSTING_INNER,
  /** GIN: a page of the pending list (fastupdate). */
  PENDING,
  /** BRIN: a page of the range map. */
  REVMAP,
  /** BRIN: a page of summary tuples. */
  REGULAR
}
