package io.pgbloat.spark;

import io.pgbloat.catalog.Relation;
import io.pgbloat.sample.RelationSlice;
import io.pgbloat.xact.ClusterTransactions;
import java.util.List;

/**
 * What the driver learned before any page is read: the relations to report, the blocks to
 * read of each, and what the executors need to judge tuples.
 *
 * @param dataDir the data directory as given
 * @param relations the relations to report, in report order; index = relation id
 * @param slices per relation (same index), the blocks to read
 * @param transactions what decides in-progress transactions
 * @param dataChecksums whether pages carry checksums
 * @param findings problems with relation files found while measuring them
 * @param warnings things to know that do not change a figure
 */
public record AnalysisPlan(
    String dataDir, List<Relation> relations, List<RelationSlice> slices, ClusterTransactions transactions,
    boolean dataChecksums, List<String> findings, List<String> warnings) {

  public long totalBlocks() {
    return slices.stream().mapToLong(s -> s.blocks().size()).sum();
  }
}
