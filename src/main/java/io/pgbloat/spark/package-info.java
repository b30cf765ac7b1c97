/**
 * The Spark job. On the driver, before Spark is needed, {@link io.pgbloat.spark.AnalysisPlanner}
 * opens the data directory ({@link io.pgbloat.spark.OpenedDataDirectory}), selects the relations
 * ({@link io.pgbloat.spark.RelationSelector}) and draws their first samples
 * ({@link io.pgbloat.spark.SampleDrawer}) into an {@link io.pgbloat.spark.AnalysisPlan};
 * {@link io.pgbloat.spark.BloatAnalyzer} runs it, {@code scan} on the executors. Knows no byte
 * offsets; uses every layer below it.
 */
package io.pgbloat.spark;
