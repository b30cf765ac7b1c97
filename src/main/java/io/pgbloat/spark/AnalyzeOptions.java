package io.pgbloat.spark;

import io.pgbloat.catalog.RelationFilter;

/**
 * What to analyze and how.
 *
 * @param dataDir the data directory: a local path or a Hadoop URI
 * @param filter which relations to report
 * @param fullScan read every block (the exact answer)
 */
public record AnalyzeOptions(String dataDir, RelationFilter filter, boolean fullScan) {}
