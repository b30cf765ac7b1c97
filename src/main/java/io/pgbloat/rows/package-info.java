/**
 * The rows a run reports: a table's ({@link io.pgbloat.rows.RelationReport}), an index's
 * ({@link io.pgbloat.rows.IndexReport}), a table with its TOAST table and indexes
 * ({@link io.pgbloat.rows.TableTotal}), each its relation, its figures and the advice on it, and
 * the rollups of partitioned tables and indexes. Plain data for {@code report} to render.
 */
package io.pgbloat.rows;
