/**
 * Which blocks to read: the seeded sampler ({@link io.pgbloat.sample.BlockSampler}, Algorithm S),
 * the strata (tail, visibility map) and each relation's sample ({@link
 * io.pgbloat.sample.SamplePlanner}), and the cutting of all samples into parallel ranges ({@link
 * io.pgbloat.sample.RangePlanner}). Runs on the driver; uses {@code io} and {@code page}; knows
 * nothing of Spark or of page contents.
 */
package io.pgbloat.sample;
