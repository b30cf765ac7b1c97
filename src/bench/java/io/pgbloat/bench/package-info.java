/**
 * Programs run by hand, not tests: the benchmarks and studies the {@code bench/} scripts run
 * ({@link io.pgbloat.bench.ScanCost}, {@link io.pgbloat.bench.DecodeCost},
 * {@link io.pgbloat.bench.NotebookCost}, {@link io.pgbloat.bench.SampleSizeStudy}), and
 * {@link io.pgbloat.bench.PageValuesExport}, which writes the page-values fixture the sampling
 * tests and the sample-size study read. They are compiled with the tests (the build adds
 * {@code src/bench/java} as a test source root), so they may use the test helpers, and they are
 * on the class path {@code bench/test-classpath.sh} prints; surefire runs none of them.
 */
package io.pgbloat.bench;
