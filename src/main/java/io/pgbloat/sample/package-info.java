/**
 * Which blocks to read and how to cut them into parallel ranges ({@link
 * io.pgbloat.sample.BlockList}, {@link io.pgbloat.sample.RangePlanner}). Runs on the driver;
 * uses {@code io} for relation files; knows nothing of Spark or of page contents.
 */
package io.pgbloat.sample;
