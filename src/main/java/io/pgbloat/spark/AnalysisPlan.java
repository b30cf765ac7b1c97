package io.pgbloat.spark;

import io.pgbloat.catalog.Relation;
import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.io.store.BackupIndex;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.io.store.StoreAddress;
import io.pgbloat.io.store.StoreRequests;
import io.pgbloat.page.PageRules;
import io.pgbloat.pass.IndexingPassCounts;
import io.pgbloat.sample.IndexWholeBlocks;
import io.pgbloat.sample.RangePlanner;
import io.pgbloat.sample.RelationSample;
import io.pgbloat.sample.RelationSlice;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.sample.ScanRange;
import io.pgbloat.scan.IndexRangeResult;
import io.pgbloat.scan.RangeResult;
import io.pgbloat.xact.ClusterTransactions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What the driver learned before any page is read: the relations to report, where their
 * blocks are, which blocks to read first, and what the executors need to judge tuples. The
 * lists are parallel: a relation's number in the plan is its index in them. The tasks name a
 * relation by that number ({@link RelationSlice#relation}, the keys of their sums, a
 * {@link io.pgbloat.scan.PageFinding}): an int, cheap on the executors' hot path and in every
 * range's result, where the driver knows it by its {@link io.pgbloat.catalog.RelationId}.
 * {@link IndexPlan}'s lists number the indexes alike.
 *
 * @param store where the data directory's files are, for the tasks to open them (its address as
 *     given, and a backup's index)
 * @param options what was asked
 * @param relations the relations to report, in report order
 * @param files per relation, its main fork
 * @param allVisible per relation, its all-visible blocks (empty when not sampled)
 * @param samples per relation, the blocks to read first
 * @param transactions what decides in-progress transactions
 * @param pageRules how the cluster's pages are checked and counted
 * @param findings problems with relation files found while measuring them
 * @param warnings things to know that do not change a figure
 * @param indexes the indexes to report, when asked
 * @param cost how long the catalog read and the planning took, and what they asked of a remote store
 * @param rollups the selected partitioned tables, each to sum its leaf partitions' rows
 * @param unreported the relations (by number) read only as parts of a rollup or a total, which
 *     the filter does not select (or too small to report)
 * @param countedTables the tables counted as a compressed backup was decoded to be indexed,
 *     which no task reads again ({@link IndexingPassCounts})
 * @param countedIndexes the same of the indexes
 */
public record AnalysisPlan(
    StoreAddress store, AnalyzeOptions options, List<Relation> relations, List<SegmentedFile> files,
    List<BlockList> allVisible, List<RelationSample> samples, ClusterTransactions transactions,
    PageRules pageRules, List<String> findings, List<String> warnings, IndexPlan indexes,
    PlanningCost cost, List<PartitionRollup> rollups, Set<Integer> unreported,
    IndexingPassCounts.Settled<RangeResult> countedTables, IndexingPassCounts.Settled<IndexRangeResult> countedIndexes) {
  public AnalysisPlan {
    unreported = Set.copyOf(unreported);
  }

  /** This plan, with the relations {@code counts} settles counted already. */
  AnalysisPlan countedWhileIndexing(IndexingPassCounts counts, FileStore files) {
    return new AnalysisPlan(store, options, relations, this.files, allVisible, samples, transactions, pageRules,
        findings, warnings, indexes, cost, rollups, unreported,
        counts.tables(tableSlices(samples), files, transactions, pageRules),
        counts.indexes(indexSlices(), indexes.accessMethods(), indexes.fillfactors(), pageRules));
  }

  /** The data directory as given. */
  public String dataDir() {
    return store.dataDir();
  }

  /**
   * @param countingSeconds decoding a compressed backup to index it while its pages were counted
   *     ({@link IndexingPassCounts}; 0 when none was)
   * @param catalogSeconds reading pg_database, pg_class, pg_namespace (and pg_index) of every database
   * @param planSeconds measuring the selected relations' files, reading their visibility maps and
   *     drawing their samples
   * @param requests what opening and planning asked of a remote store
   */
  public record PlanningCost(double countingSeconds, double catalogSeconds, double planSeconds,
      StoreRequests requests) implements java.io.Serializable {
    /** Nothing planned yet. */
    public static final PlanningCost NONE = new PlanningCost(0, 0, 0, StoreRequests.NONE);
  }

  /** Ranges per core: enough that one slow range does not hold up the end of the job. */
  private static final int RANGES_PER_CORE = 4;
  /** 131072 blocks (1 GB): the most a failed task repeats. */
  private static final long MAX_RANGE_BLOCKS = 131072;

  public SampleSize sampleSize() {
    return options.sampleSize();
  }

  /** The indexes' blocks to read, cut into ranges as {@code sizing} says: those not counted already. */
  public List<ScanRange> indexRanges(Supplier<RangeSizing> sizing) {
    return cut(indexSlices().stream().filter(s -> !countedIndexes.relations().contains(s.relation())).toList(),
        sizing);
  }

  /** Per index, the blocks to read. */
  private List<RelationSlice> indexSlices() {
    List<RelationSlice> slices = new ArrayList<>();
    for (int i = 0; i < indexes.relations().size(); i++) {
      BlockList sample = indexes.samples().get(i);
      // a sample's blocks tagged by stratum: those read whole whatever the sample TAKE_ALL, the
      // rest OTHER; an index read whole has no tags (every block TAKE_ALL)
      byte[] strata = sample.size() >= indexes.files().get(i).blocks() ? null
          : IndexWholeBlocks.strata(sample, indexes.wholeBlocks().get(i).blocks());
      slices.add(RelationSlice.ofIndex(i, indexes.files().get(i), sample, strata));
    }
    return slices;
  }

  /**
   * The slices in ranges, for a job {@code sizedBy} sizes (asked only when there are blocks to
   * read): those read at random cut by {@link RangePlanner}; those of a stream
   * that can only be read in order (a compressed archive's or file's,
   * {@link BackupIndex#streamPosition}) in the stream's order, each stream whole in one range
   * ({@link RangePlanner#packStreams}).
   */
  private List<ScanRange> cut(List<RelationSlice> slices, Supplier<RangeSizing> sizedBy) {
    long total = slices.stream().mapToLong(s -> s.blocks().size()).sum();
    if (total == 0) {
      return List.of(); // nothing left to read (a backup counted as it was indexed): no job to size
    }
    RangeSizing sizing = sizedBy.get();
    List<RelationSlice> random = new ArrayList<>();
    List<List<RelationSlice>> streams = store.index() == null || !store.index().streams() ? List.of()
        : RangePlanner.inStreamOrder(slices, store.index()::streamPosition, random);
    List<RelationSlice> atRandom = streams.isEmpty() ? slices : random;
    long randomBlocks = streams.isEmpty() ? total : atRandom.stream().mapToLong(s -> s.blocks().size()).sum();
    List<ScanRange> ranges = new ArrayList<>(new RangePlanner(randomBlocks, sizing.parallelism(), RANGES_PER_CORE,
        sizing.minRangeBlocks(), MAX_RANGE_BLOCKS).cut(atRandom));
    for (List<RelationSlice> packed : RangePlanner.packStreams(streams, sizing.parallelism(), RANGES_PER_CORE,
        sizing.minRangeBlocks())) {
      ranges.add(new ScanRange(ranges.size(), packed));
    }
    return ranges;
  }

  /**
   * Per range (same order), the hosts holding most of its bytes; empty lists for local files,
   * and when every task runs on {@code oneHost} (a local master's: the driver's).
   */
  public List<List<String>> preferredHosts(List<ScanRange> ranges, boolean oneHost) {
    return oneHost ? RangeLocality.none(ranges) : RangeLocality.preferredHosts(store, ranges);
  }

  /**
   * The blocks of {@code samples} (one per relation) cut into ranges as {@code sizing} says:
   * those not counted already.
   */
  public List<ScanRange> ranges(List<RelationSample> samples, Supplier<RangeSizing> sizing) {
    return cut(tableSlices(samples).stream().filter(s -> !countedTables.relations().contains(s.relation())).toList(),
        sizing);
  }

  /** Per relation, the blocks of {@code samples} to read. */
  private List<RelationSlice> tableSlices(List<RelationSample> samples) {
    List<RelationSlice> slices = new ArrayList<>();
    for (int i = 0; i < samples.size(); i++) {
      slices.add(RelationSlice.of(i, files.get(i), samples.get(i), relations.get(i).isToast(),
          relations.get(i).columns()));
    }
    return slices;
  }
}
