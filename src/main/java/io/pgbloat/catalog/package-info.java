/**
 * The data directory read offline: PG_VERSION, pg_control (and whether a server started on
 * the files runs recovery first, {@link io.pgbloat.catalog.StartupRecovery}), relation maps,
 * and the catalogs pg_database, pg_class, pg_namespace, pg_am, pg_index and pg_inherits (and,
 * for the tables of hash indexes, pg_attribute and pg_statistic), decoded with the page format
 * and judged with the same commit-log rules as user tuples. Produces the lists of
 * {@link io.pgbloat.catalog.Relation}s to report, each of a {@link io.pgbloat.catalog.RelKind}
 * and known in the cluster by its {@link io.pgbloat.catalog.RelationId}: relations with heap
 * storage, indexes of every access method, and partitioned tables and indexes with their
 * leaves; and what the planner knows of a hash index's table's size,
 * {@link io.pgbloat.catalog.TableStatistics}, with its estimate of the table's tuples by the
 * version's {@link io.pgbloat.catalog.TupleEstimateRule}. Uses {@code page}, {@code io},
 * {@code xact}; knows nothing of Spark.
 */
package io.pgbloat.catalog;
