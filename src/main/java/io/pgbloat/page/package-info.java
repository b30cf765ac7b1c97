/**
 * The on-disk format of PostgreSQL pages (the same in 13-18), one class per structure, each citing the header
 * it follows: {@link io.pgbloat.page.PageHeader}, {@link io.pgbloat.page.ItemId},
 * {@link io.pgbloat.page.HeapTupleHeader}, the checksum and sanity rules, and
 * {@link io.pgbloat.page.HeapPage}, which counts one page as pgstattuple does, and one
 * {@link io.pgbloat.page.IndexPageCounter} per index access method ({@link io.pgbloat.page.BtreePage}
 * as pgstatindex counts a btree page, the others as pgstattuple and its kin count theirs) into one
 * {@link io.pgbloat.page.IndexPageStats}, with the metapage's figures in one
 * {@link io.pgbloat.page.IndexMetapage}. The bottom
 * layer: it uses no other package of the tool but {@code error}. Byte offsets live here and
 * nowhere above.
 */
package io.pgbloat.page;
