package io.pgbloat.page;

/**
 * What an index page holds that a fresh build of the index would write again: a GIN page's
 * tuples ({@link GinTuples}), a btree leaf's live entries ({@link BtreeLeafEntries.Bytes}).
 * The rebuild models of {@code stats} sum them over the pages.
 */
public sealed interface BuildEntries permits GinTuples, BtreeLeafEntries.Bytes {}
