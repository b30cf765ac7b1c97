/**
 * What changed between two copies of one cluster, as the copies themselves record it: the WAL
 * summaries PostgreSQL 17 and later keep in {@code pg_wal/summaries} ({@link
 * io.pgbloat.changes.WalSummaryFile}, {@link io.pgbloat.changes.WalSummaries}). Runs on the
 * driver; uses {@code io}; knows nothing of Spark or of page contents.
 */
package io.pgbloat.changes;
