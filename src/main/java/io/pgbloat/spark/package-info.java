/**
 * The Spark job: {@link io.pgbloat.spark.BloatAnalyzer} plans on the driver and runs
 * {@code scan} on the executors. Knows no byte offsets; uses every layer below it.
 */
package io.pgbloat.spark;
