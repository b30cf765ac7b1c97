/**
 * Exact partial sums over pages and the figures built from them: {@code Moments}
 * (Σy, Σy², min, max) under a table's {@link io.pgbloat.stats.PartialSums} and an index's
 * {@link io.pgbloat.stats.IndexPageSums} (of any access method), one estimator of a total and
 * of a ratio for both ({@link io.pgbloat.stats.StratifiedEstimator}), pgstattuple's figures
 * ({@link io.pgbloat.stats.RelationFigures}), an index's ({@link io.pgbloat.stats.IndexPageEstimates},
 * pgstatindex's in {@link io.pgbloat.stats.IndexFigures}), and what a rewrite or a REINDEX would
 * give back. Uses {@code page} for the per-page counts; knows nothing of files, Spark or output
 * formats.
 */
package io.pgbloat.stats;
