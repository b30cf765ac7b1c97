/**
 * The data directory read offline: PG_VERSION, pg_control, relation maps, and the catalogs
 * pg_database, pg_class and pg_namespace, decoded with the page format and judged with the
 * same commit-log rules as user tuples. Produces the list of {@link io.pgbloat.catalog.Relation}s
 * to report. Uses {@code page}, {@code io}, {@code xact}; knows nothing of Spark.
 */
package io.pgbloat.catalog;
