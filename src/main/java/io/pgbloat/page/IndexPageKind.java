package io.pgbloat.page;

/** What an index page is, by its access method's own flags; one list for every method. */
public enum IndexPageKind {
  /** All zero: never written, or left by a crash while extending (PageIsNew). */
  NEW,
  /** Failed the checks: not counted. */
  BAD,
  /** The metapage (btree, hash, GIN, SP-GiST, BRIN block 0). */
  META,
  /** Hash: a bucket's primary page. */
  BUCKET,
  /** Hash: a page chained to a bucket. */
  OVERFLOW,
  /** Hash: a page of the free-overflow-page bitmap. */
  BITMAP,
  /** Hash: a page allocated and not in use. */
  UNUSED,
  /** Btree (neither deleted nor half-dead), GiST, SP-GiST: a leaf page. */
  LEAF,
  /** Btree (neither leaf, deleted nor half-dead: pgstatindex's internal pages), GiST, SP-GiST: an inner page. */
  INNER,
  /** Btree: a page BTP_HALF_DEAD and not BTP_DELETED, empty but still in the tree (pgstatindex's empty_pages). */
  HALF_DEAD,
  /** Btree (BTP_DELETED, whatever else is set), GiST, GIN: a page deleted by VACUUM, to be recycled. */
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
