package io.pgbloat.spark;

import io.pgbloat.catalog.DataDirectory;
import io.pgbloat.catalog.Relation;
import io.pgbloat.catalog.RelationId;
import io.pgbloat.error.DataDirectoryException;
import io.pgbloat.pass.IndexingPassCounts;
import io.pgbloat.sample.SampleSize;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The driver's first step, before Spark is needed: opens the data directory
 * ({@link OpenedDataDirectory}), selects the relations from its catalog ({@link RelationSelector})
 * and draws the blocks to read first ({@link SampleDrawer}), into an {@link AnalysisPlan}.
 */
public final class AnalysisPlanner implements AutoCloseable {
  private final AnalyzeOptions options;
  private final OpenedDataDirectory opened;

  private AnalysisPlanner(AnalyzeOptions options, OpenedDataDirectory opened) {
    this.options = options;
    this.opened = opened;
  }

  /** Opens and plans in one step. */
  public static AnalysisPlan plan(AnalyzeOptions options) {
    try (AnalysisPlanner planner = open(options)) {
      return planner.plan();
    }
  }

  /**
   * Opens and plans in one step, for reading the pages one by one (the page view): every block
   * is left to the tasks, none counted as a backup is indexed.
   */
  public static AnalysisPlan planPages(AnalyzeOptions options) {
    try (AnalysisPlanner planner = new AnalysisPlanner(options, OpenedDataDirectory.open(options, false))) {
      return planner.plan();
    }
  }

  /**
   * Opens the data directory and checks it is one this tool reads (version, control file):
   * quick, so a wrong path fails before anything slow starts.
   */
  public static AnalysisPlanner open(AnalyzeOptions options) {
    return new AnalysisPlanner(options, OpenedDataDirectory.open(options, true));
  }

  /** Whether opening counted a compressed backup's pages as it was indexed: a full scan may then need no task. */
  public boolean countedWhileOpening() {
    return opened.countedWhileOpening();
  }

  /**
   * Reads the catalog, selects the relations, measures their files and chooses each one's
   * first sample (reading its visibility map when it is sampled).
   */
  public AnalysisPlan plan() {
    long started = System.nanoTime();
    try {
      DataDirectory dir = opened.catalog();
      List<String> findings = new ArrayList<>();
      List<String> warnings = opened.warnings();
      RelationSelector selector = new RelationSelector(dir, options.filter(), findings);
      RelationSelection selection = selector.tables(options.totals() != AnalyzeOptions.Totals.NONE);
      long listed = System.nanoTime();
      SampleDrawer drawer = new SampleDrawer(opened.store(), dir, options, findings, warnings);
      SampleDrawer.Tables tables = new SampleDrawer.Tables();
      drawer.drawTables(tables, selection.relations(), r -> selection.parts().contains(r.id()), options.sampleSize());
      IndexPlan indexes = indexes(selector, drawer, tables.relations);
      drawer.drawTables(tables, selector.tablesOf(indexes.relations(), tables.relations), r -> true,
          rebuildSampleSize());
      AnalysisPlan plan = new AnalysisPlan(opened.address(options), options, tables.relations, tables.files,
          tables.allVisible, tables.samples, dir.transactions(), dir.pageRules(), findings, warnings, indexes,
          new AnalysisPlan.PlanningCost(opened.countingSeconds(), (listed - started) / 1e9,
              (System.nanoTime() - listed) / 1e9, opened.store().requests()),
          PartitionRollup.of(selection.partitioned(), tables.relations), tables.unreported,
          IndexingPassCounts.Settled.NO_TABLES, IndexingPassCounts.Settled.NO_INDEXES);
      IndexingPassCounts counted = opened.takeCounted(); // settled once, then let go for the scan
      return counted == null ? plan : plan.countedWhileIndexing(counted, opened.store());
    } catch (IOException e) {
      throw new DataDirectoryException("Cannot read data directory " + options.dataDir() + ": " + e.getMessage(), e);
    }
  }

  /**
   * The indexes to read and their blocks: those the index report asks for, and, for a total
   * with indexes, every index of the {@code tables} read.
   */
  private IndexPlan indexes(RelationSelector selector, SampleDrawer drawer, List<Relation> tables)
      throws IOException {
    boolean report = options.indexes() && options.filter().selectsIndexes();
    boolean totalIndexes = options.totals() == AnalyzeOptions.Totals.WITH_INDEXES;
    if (!report && !totalIndexes) {
      return IndexPlan.NONE;
    }
    // a total counts the indexes of every table and TOAST table read
    Set<RelationId> owners = new HashSet<>();
    if (totalIndexes) {
      tables.forEach(r -> owners.add(r.id()));
    }
    return drawer.drawIndexes(selector.indexes(report, owners), report);
  }

  /**
   * The sample of a btree's table read for its rebuild alone (which keeps as many heap TIDs as
   * the table has live tuples): as the run samples, but never whole for that alone, the count's
   * error going into the figure.
   */
  private SampleSize rebuildSampleSize() {
    SampleSize.Mode mode = options.sampleSize().mode();
    return mode == SampleSize.Mode.FULL_SCAN || mode == SampleSize.Mode.TARGET_RSE ? SampleSize.DEFAULT
        : options.sampleSize();
  }

  @Override
  public void close() {
    opened.close();
  }
}
