/**
 * Exact partial sums over pages and the one estimator built on them: {@code Moments} (Σy, Σy²,
 * min, max) under a table's {@link io.pgbloat.stats.PartialSums} (by stratum,
 * {@link io.pgbloat.stats.StratifiedSums}) and an index's {@link io.pgbloat.stats.IndexPageSums}
 * (of any access method), the measures they sum ({@link io.pgbloat.stats.Measure},
 * {@link io.pgbloat.stats.IndexMeasure}), the one estimator of a total and of a ratio for both
 * ({@link io.pgbloat.stats.StratifiedEstimator} over {@link io.pgbloat.stats.StratumSample}) and
 * the {@link io.pgbloat.stats.Estimate} it gives, the sample size a target error needs, and the
 * pages by dead fraction. Uses {@code page} for the per-page counts and {@code sample} for the
 * strata; knows nothing of files, Spark or output formats.
 */
package io.pgbloat.stats;
