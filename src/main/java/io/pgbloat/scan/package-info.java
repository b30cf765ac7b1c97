/**
 * The work of one task, without Spark: read a range's blocks, count each page, add into
 * exact partial sums; {@link io.pgbloat.scan.BtreeIndexScanner} reads one btree index whole.
 * Uses {@code io}, {@code page}, {@code xact}, {@code sample}, {@code stats} and {@code figures}.
 */
package io.pgbloat.scan;
