/**
 * Exact partial sums over pages and the figures built from them. Uses {@code page} for the
 * per-page counts; knows nothing of files, Spark or output formats.
 */
package io.pgbloat.stats;
