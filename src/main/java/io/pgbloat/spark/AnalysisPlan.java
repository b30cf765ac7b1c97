package io.pgbloat.spark;

import io.pgbloat.catalog.Relation;
import io.pgbloat.io.SegmentedFile;
import io.pgbloat.io.BlockList;
import io.pgbloat.sample.RelationSample;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.xact.ClusterTransactions;
import java.util.List;

/**
 * What the driver learned before any page is read: the relations to report, where their
 * blocks are, which blocks to read first, and what the executors need to judge tuples. The
 * lists are parallel: index = relation id.
 *
 * @param dataDir the data directory as given
 * @param options what was asked
 * @param relations the relations to report, in report order
 * @param files per relation, its main fork
 * @param allVisible per relation, its all-visible blocks (empty when not sampled)
 * @param samples per relation, the blocks to read first
 * @param transactions what decides in-progress transactions
 * @param dataChecksums whether pages carry checksums
 * @param findings problems with relation files found while measuring them
 * @param warnings things to know that do not change a figure
 */
public record AnalysisPlan(
    String dataDir, AnalyzeOptions options, List<Relation> relations, List<SegmentedFile> files,
    List<BlockList> allVisible, List<RelationSample> samples, ClusterTransactions transactions,
    boolean dataChecksums, List<String> findings, List<String> warnings) {

  public SampleSize sampleSize() {
    return options.sampleSize();
  }
}
