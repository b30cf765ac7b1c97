/**
 * The data directory read offline: PG_VERSION, pg_control, relation maps, and the catalogs
 * pg_database, pg_class, pg_namespace and pg_index, decoded with the page format and judged
 * with the same commit-log rules as user tuples. Produces the lists of
 * {@link io.pgbloat.catalog.Relation}s to report: relations with heap storage, and btree
 * indexes. Uses {@code page}, {@code io}, {@code xact}; knows nothing of Spark.
 */
package io.pgbloat.catalog;
