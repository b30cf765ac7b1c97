/**
 * Exact partial sums over pages and the figures built from them: pgstattuple's for heaps
 * ({@link io.pgbloat.stats.PartialSums}), pgstatindex's for btree indexes
 * ({@link io.pgbloat.stats.BtreeSums}, {@link io.pgbloat.stats.IndexFigures},
 * {@link io.pgbloat.stats.IndexEstimator}). Uses {@code page} for the
 * per-page counts; knows nothing of files, Spark or output formats.
 */
package io.pgbloat.stats;
