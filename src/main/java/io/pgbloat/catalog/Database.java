package io.pgbloat.catalog;

/**
 * A database of the cluster, from pg_database.
 *
 * @param oid its OID
 * @param name datname
 * @param tablespace dattablespace: where relations with reltablespace 0 live
 * @param directory its directory relative to the data directory (base/&lt;oid&gt; or a
 *     tablespace's)
 * @param encoding its server encoding (an {@code enum pg_enc} number): the encoding of the
 *     names in its catalogs
 */
public record Database(int oid, String name, int tablespace, String directory, int encoding) {}
