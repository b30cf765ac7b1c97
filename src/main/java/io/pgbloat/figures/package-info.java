/**
 * A relation's figures from its sums: pgstattuple's for a table
 * ({@link io.pgbloat.figures.RelationFigures}), an index's of any access method
 * ({@link io.pgbloat.figures.IndexPageEstimates}, pgstatindex's arithmetic in
 * {@link io.pgbloat.figures.IndexFigures}), each estimated by {@code stats}'s one estimator, with
 * what a rewrite or a REINDEX would give back by {@code rebuild}'s models.
 */
package io.pgbloat.figures;
