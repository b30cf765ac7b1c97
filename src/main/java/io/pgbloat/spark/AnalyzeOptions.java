package io.pgbloat.spark;

import io.pgbloat.catalog.RelationFilter;

/**
 * What to analyze. Every block is read (the exact answer) until block sampling lands.
 *
 * @param dataDir the data directory: a local path or a Hadoop URI
 * @param filter which relations to report
 */
public record AnalyzeOptions(String dataDir, RelationFilter filter) {}
