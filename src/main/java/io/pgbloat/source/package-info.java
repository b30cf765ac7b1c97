/**
 * The Spark data source {@code spark.read.format("pgbloat")}: the report, or one row per
 * sampled page, as a DataFrame. The top layer beside the command line: it wires options to
 * the analyzer and the scan, and computes nothing itself.
 */
package io.pgbloat.source;
