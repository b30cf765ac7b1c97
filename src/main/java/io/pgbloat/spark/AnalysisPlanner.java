package io.pgbloat.spark;

import io.pgbloat.catalog.DataDirectory;
import io.pgbloat.catalog.Database;
import io.pgbloat.catalog.PartitionedRelation;
import io.pgbloat.catalog.RelKind;
import io.pgbloat.catalog.Relation;
import io.pgbloat.catalog.RelationId;
import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.error.DataDirectoryException;
import io.pgbloat.io.FileStores;
import io.pgbloat.io.backup.ArchiveException;
import io.pgbloat.io.backup.RelationFileReader;
import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.io.store.BackupIndex;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.io.store.StoreAddress;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.pass.IndexingPassCounter;
import io.pgbloat.pass.IndexingPassCounts;
import io.pgbloat.sample.BlockSampler;
import io.pgbloat.sample.IndexWholeBlocks;
import io.pgbloat.sample.RelationSample;
import io.pgbloat.sample.SamplePlanner;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.sample.VisibilityMap;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The driver's first step, before Spark is needed: open the data directory, read its
 * catalog, select the relations, measure their files, choose the blocks to read.
 */
public final class AnalysisPlanner implements AutoCloseable {
  static final Comparator<Relation> REPORT_ORDER = Comparator.comparing(Relation::database)
      .thenComparing(Relation::schema).thenComparing(Relation::name);

  private final AnalyzeOptions options;
  private final FileStore store;
  private final DataDirectory dir;
  /** What opening counted of a compressed backup's pages; null once the plan has settled them (or none was). */
  private IndexingPassCounts counted;
  private final boolean countedWhileOpening;
  /** How long opening the data directory took (a compressed backup's: decoding it whole). */
  private final double openSeconds;

  private AnalysisPlanner(AnalyzeOptions options, FileStore store, DataDirectory dir, IndexingPassCounts counted,
      double openSeconds) {
    this.options = options;
    this.store = store;
    this.dir = dir;
    this.countedWhileOpening = counted != null && !counted.isEmpty();
    this.counted = countedWhileOpening ? counted : null; // none to settle: the plan is made as for a directory
    this.openSeconds = openSeconds;
  }

  /** Whether opening counted a compressed backup's pages as it was indexed: a full scan may then need no task. */
  public boolean countedWhileOpening() {
    return countedWhileOpening;
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
    try (AnalysisPlanner planner = open(options, false)) {
      return planner.plan();
    }
  }

  /**
   * Opens the data directory and checks it is one this tool reads (version, control file):
   * quick, so a wrong path fails before anything slow starts.
   */
  public static AnalysisPlanner open(AnalyzeOptions options) {
    return open(options, true);
  }

  /**
   * @param sums whether the run adds up sums, so that a full scan may count a compressed backup's
   *     pages as it is decoded to be indexed, once (not the page view, which reads them one by one)
   */
  private static AnalysisPlanner open(AnalyzeOptions options, boolean sums) {
    FileStore store = null;
    try {
      IndexingPassCounter counter = sums && options.sampleSize().mode() == SampleSize.Mode.FULL_SCAN
          ? new IndexingPassCounter() : null;
      long started = System.nanoTime();
      store = FileStores.open(options.dataDir(), options.io().directIo(),
          counter == null ? RelationFileReader.NONE : counter);
      double seconds = (System.nanoTime() - started) / 1e9;
      return new AnalysisPlanner(options, store, DataDirectory.open(store), counter == null ? null : counter.counts(),
          seconds);
    } catch (ArchiveException e) {
      throw new DataDirectoryException("Cannot read the backup in " + options.dataDir() + ": " + e.getMessage(), e);
    } catch (IOException e) {
      throw new DataDirectoryException("Cannot read data directory " + options.dataDir() + ": " + e.getMessage()
          + " (check the path; for hdfs:// that the name node is up and reachable at that host and port)", e);
    } catch (RuntimeException e) {
      closeQuietly(store);
      throw e;
    }
  }

  /**
   * Reads the catalog, selects the relations, measures their files and chooses each one's
   * first sample (reading its visibility map when it is sampled).
   */
  public AnalysisPlan plan() {
    long started = System.nanoTime();
    try {
      List<String> findings = new ArrayList<>();
      List<String> warnings = new ArrayList<>(dir.warnings());
      BackupIndex index = store.backupIndex();
      if (index != null && index.streamingWarning() != null) {
        warnings.add(index.streamingWarning());
      }
      Selection selection = select(dir, options.filter(), options.totals() != AnalyzeOptions.Totals.NONE, findings);
      long listed = System.nanoTime();
      Heaps heaps = new Heaps();
      for (Relation r : selection.relations()) {
        heaps.add(r, selection.parts().contains(r), options.sampleSize(), findings, warnings);
      }
      // a total counts the indexes of every table and TOAST table read
      Set<RelationId> owners = new HashSet<>();
      boolean totalIndexes = options.totals() == AnalyzeOptions.Totals.WITH_INDEXES;
      if (totalIndexes) {
        heaps.relations.forEach(r -> owners.add(r.id()));
      }
      boolean reportIndexes = options.indexes() && options.filter().selectsIndexes();
      IndexPlan indexes = reportIndexes || totalIndexes ? planIndexes(reportIndexes, owners, findings) : IndexPlan.NONE;
      // a btree's rebuild keeps as many heap TIDs as its table has live tuples: its table is
      // read too, as the run samples, but never whole for that alone (its count's error goes
      // into the figure)
      SampleSize.Mode mode = options.sampleSize().mode();
      SampleSize forRebuild = mode == SampleSize.Mode.FULL_SCAN || mode == SampleSize.Mode.TARGET_RSE
          ? SampleSize.DEFAULT : options.sampleSize();
      for (Relation table : tablesNotRead(indexes.relations(), heaps.relations)) {
        heaps.add(table, true, forRebuild, findings, warnings);
      }
      AnalysisPlan plan = new AnalysisPlan(new StoreAddress(options.dataDir(), index), options, heaps.relations,
          heaps.files, heaps.allVisible, heaps.samples, dir.transactions(), dir.pageRules(), findings, warnings, indexes,
          new AnalysisPlan.PlanTimings(countedWhileOpening() ? openSeconds : 0, (listed - started) / 1e9,
              (System.nanoTime() - listed) / 1e9),
          rollups(selection.partitioned(), heaps.relations), heaps.unreported,
          IndexingPassCounts.Settled.NO_TABLES, IndexingPassCounts.Settled.NO_INDEXES);
      if (counted == null) {
        return plan;
      }
      IndexingPassCounts counts = counted;
      counted = null; // settled once: what it holds (up to a quarter of the heap) is let go for the scan
      return plan.countedWhileIndexing(counts, store);
    } catch (IOException e) {
      throw new DataDirectoryException("Cannot read data directory " + options.dataDir() + ": " + e.getMessage(), e);
    }
  }

  /** The heap relations to read, as the plan's parallel lists are built. */
  private final class Heaps {
    final List<Relation> relations = new ArrayList<>();
    final List<SegmentedFile> files = new ArrayList<>();
    final List<BlockList> allVisible = new ArrayList<>();
    final List<RelationSample> samples = new ArrayList<>();
    final Set<Integer> unreported = new HashSet<>();

    /**
     * Measures {@code r}'s main fork and draws its first sample of {@code size} (reading its
     * visibility map when it is sampled); a relation read only as a {@code part} of a rollup, a
     * total or an index's rebuild is kept whatever its size, and not reported unless the filter
     * selects it.
     */
    void add(Relation r, boolean part, SampleSize size, List<String> findings, List<String> warnings)
        throws IOException {
      if (!r.am().equals(Relation.HEAP)) {
        warnings.add(r.qualifiedName() + ": its table access method is " + r.am() + ", not heap, whose pages "
            + "this tool reads; it is left out of the report");
        return;
      }
      int segmentBlocks = dir.control().segmentBlocks();
      SegmentedFile.Measured measured = mainFork(r, segmentBlocks);
      long blocks = measured.file().blocks();
      // a damaged file is reported whatever its size: a missing one measures 0 blocks
      for (String problem : measured.problems()) {
        findings.add(r.qualifiedName() + ": " + problem);
      }
      boolean reported = options.filter().selects(r) && options.filter().selectsSize(measured.file().bytes());
      if (!reported && !part) {
        return;
      }
      if (!reported) {
        unreported.add(relations.size());
      }
      relations.add(r);
      long wanted = size.firstSample(blocks);
      BlockList visible = BlockList.of();
      RelationSample sample;
      if (wanted >= blocks) {
        sample = RelationSample.everything(blocks);
      } else {
        List<String> vmProblems = new ArrayList<>();
        visible = VisibilityMap.allVisible(store, r.relpath(), segmentBlocks, blocks,
            dir.control().dataChecksums(), vmProblems);
        vmProblems.forEach(p -> warnings.add(r.qualifiedName() + ": " + p));
        sample = SamplePlanner.plan(blocks, visible, wanted, options.seedFor(r));
      }
      files.add(measured.file());
      allVisible.add(visible);
      samples.add(sample);
    }
  }

  /**
   * The heap tables (and TOAST tables) of the btree indexes among {@code indexes} that are not
   * among {@code read}, each once.
   */
  private List<Relation> tablesNotRead(List<Relation> indexes, List<Relation> read) {
    Set<RelationId> have = new HashSet<>();
    read.forEach(r -> have.add(r.id()));
    Set<RelationId> wanted = new LinkedHashSet<>();
    for (Relation index : indexes) {
      if (index.am().equals(IndexAccessMethod.BTREE.amname()) && index.owner() != 0
          && !have.contains(index.ownerId())) {
        wanted.add(index.ownerId());
      }
    }
    List<Relation> tables = new ArrayList<>();
    if (wanted.isEmpty()) {
      return tables;
    }
    for (Database db : dir.databases()) {
      List<Relation> listed;
      try {
        listed = dir.relations(db);
      } catch (DataDirectoryException e) {
        continue; // a damaged catalog, a finding of select's already: its indexes' rebuilds keep every entry
      }
      for (Relation r : listed) {
        if (r.am().equals(Relation.HEAP) && wanted.remove(r.id())) { // shared ones: once
          tables.add(r);
        }
      }
    }
    return tables;
  }

  /**
   * The indexes (every access method) to read: those the filter selects when the index report
   * is asked for ({@code report}), the indexes of the tables in {@code owners}
   * for their totals, and the leaves of the partitioned indexes selected; shared ones once. Of
   * each, its metapage and a sample of its other blocks as large as a table's (a target-RSE run
   * samples them at the default size).
   */
  private IndexPlan planIndexes(boolean report, Set<RelationId> owners, List<String> findings) throws IOException {
    RelationFilter filter = options.filter();
    SampleSize size = options.sampleSize().mode() == SampleSize.Mode.TARGET_RSE ? SampleSize.DEFAULT
        : options.sampleSize();
    int segmentBlocks = dir.control().segmentBlocks();
    Map<String, Relation> byPath = new java.util.TreeMap<>();
    Set<RelationId> parts = new HashSet<>(); // the indexes read for a rollup or a total
    List<PartitionedRelation> partitioned = new ArrayList<>();
    for (Database db : dir.databases()) {
      if (!filter.selectsDatabase(db.name()) && !filter.selectsShared()) {
        continue;
      }
      List<Relation> listed;
      try {
        listed = dir.indexes(db);
        if (report && filter.selectsDatabase(db.name()) && filter.selectsKind(RelKind.PARTITIONED_INDEX)) {
          for (PartitionedRelation p : dir.partitionedIndexes(db)) {
            if (filter.selectsName(p.relation())) {
              partitioned.add(p);
              parts.addAll(p.leafIds());
            }
          }
        }
      } catch (DataDirectoryException e) {
        // pg_index is read only here: a damaged one is a finding of its own
        findings.add("database " + db.name() + ": " + e.getMessage() + "; its indexes are left out of this report");
        continue;
      }
      for (Relation index : listed) {
        boolean wanted = index.isShared() ? filter.selectsShared() : filter.selectsDatabase(db.name());
        if (owners.contains(index.ownerId())) {
          parts.add(index.id());
        }
        if (wanted && (report && filter.selects(index) || parts.contains(index.id()))) {
          byPath.putIfAbsent(index.relpath(), index);
        }
      }
    }
    List<Relation> indexes = new ArrayList<>(byPath.values());
    indexes.sort(REPORT_ORDER);
    List<Relation> kept = new ArrayList<>();
    List<SegmentedFile> files = new ArrayList<>();
    List<BlockList> samples = new ArrayList<>();
    List<BlockList> wholeBlocks = new ArrayList<>();
    Set<Integer> unreported = new HashSet<>();
    for (Relation index : indexes) {
      SegmentedFile.Measured measured = mainFork(index, segmentBlocks);
      long blocks = measured.file().blocks();
      measured.problems().forEach(p -> findings.add(index.qualifiedName() + ": " + p));
      boolean reported = report && filter.selects(index) && filter.selectsSize(measured.file().bytes());
      if (!reported && !parts.contains(index.id())) {
        continue;
      }
      if (!reported) {
        unreported.add(kept.size());
      }
      kept.add(index);
      files.add(measured.file());
      // an access method without a page counter is listed with its size, its pages not read
      IndexAccessMethod am = IndexAccessMethod.named(index.am());
      if (am == null) {
        samples.add(BlockList.of());
        wholeBlocks.add(BlockList.of());
        continue;
      }
      BlockList sample = indexSample(blocks, size.firstSample(Math.max(0, blocks - 1)), options.seedFor(index));
      BlockList whole = BlockList.of();
      if (sample.size() < blocks) {
        List<String> problems = new ArrayList<>();
        whole = IndexWholeBlocks.of(store, measured.file(), am, dir.pageRules(), problems);
        sample = union(sample, whole);
        problems.forEach(p -> findings.add(index.qualifiedName() + ": " + p));
      }
      samples.add(sample);
      wholeBlocks.add(whole);
    }
    partitioned.sort(Comparator.comparing(PartitionedRelation::relation, REPORT_ORDER));
    return new IndexPlan(kept, files, samples, wholeBlocks, unreported, rollups(partitioned, kept));
  }

  /** The relation's main fork as the server shows it: an unlogged one's may be its init fork. */
  private SegmentedFile.Measured mainFork(Relation r, int segmentBlocks) throws IOException {
    return r.isUnlogged() ? SegmentedFile.measureUnlogged(store, r.relpath(), segmentBlocks)
        : SegmentedFile.measure(store, r.relpath(), segmentBlocks);
  }

  /** The blocks of both lists, once each, in order. */
  static BlockList union(BlockList a, BlockList b) {
    java.util.TreeSet<Long> blocks = new java.util.TreeSet<>();
    for (BlockList list : List.of(a, b)) {
      for (int run = 0; run < list.runCount(); run++) {
        for (long x = list.runStart(run); x < list.runStart(run) + list.runLength(run); x++) {
          blocks.add(x);
        }
      }
    }
    BlockList.Builder union = new BlockList.Builder();
    blocks.forEach(union::add);
    return union.build();
  }

  /** Block 0 (the metapage) and {@code wanted} of blocks 1 to N - 1, or every block. */
  static BlockList indexSample(long blocks, long wanted, long seed) {
    if (wanted >= blocks - 1) {
      return BlockList.range(0, blocks);
    }
    BlockList.Builder sample = new BlockList.Builder().add(0);
    BlockList others = BlockSampler.sample(blocks - 1, wanted, seed);
    for (int run = 0; run < others.runCount(); run++) {
      sample.addRun(others.runStart(run) + 1, others.runLength(run));
    }
    return sample.build();
  }

  @Override
  public void close() {
    closeQuietly(store);
  }

  private static void closeQuietly(FileStore store) {
    try {
      if (store != null) {
        store.close();
      }
    } catch (IOException e) {
      // read-only streams: nothing was lost
    }
  }

  /**
   * The relations to read, the partitioned tables to sum them into, and which of them are read
   * only as parts of a rollup or a total (a partition, a TOAST table), whatever the filter says.
   */
  record Selection(List<Relation> relations, List<PartitionedRelation> partitioned, Set<Relation> parts) {}

  /**
   * Per partitioned relation, its leaves among {@code relations} (those measured and kept), in
   * report order.
   */
  private static List<PartitionRollup> rollups(List<PartitionedRelation> partitioned, List<Relation> relations) {
    Map<RelationId, Integer> index = new HashMap<>();
    for (int i = 0; i < relations.size(); i++) {
      index.put(relations.get(i).id(), i);
    }
    List<PartitionRollup> rollups = new ArrayList<>();
    for (PartitionedRelation p : partitioned) {
      List<Integer> members = new ArrayList<>();
      for (RelationId leaf : p.leafIds()) {
        Integer i = index.get(leaf);
        if (i != null) {
          members.add(i);
        }
      }
      rollups.add(new PartitionRollup(p.relation(), members));
    }
    return rollups;
  }

  /**
   * The relations the filter selects, in report order (database, schema, name); shared
   * catalogs, which every database lists, once and first. A partitioned table the filter
   * selects (relkind 'p') brings its leaf partitions, whatever their names; with
   * {@code totals}, a table brings its TOAST table.
   */
  static Selection select(DataDirectory dir, RelationFilter filter, boolean totals, List<String> findings) {
    List<Database> databases = dir.databases();
    Set<String> unknown = new LinkedHashSet<>(filter.databases());
    List<Relation> selected = new ArrayList<>();
    List<PartitionedRelation> partitioned = new ArrayList<>();
    Set<Relation> parts = new HashSet<>();
    boolean wantShared = filter.selectsShared();
    for (Database db : databases) {
      unknown.remove(db.name());
      if (!filter.selectsDatabase(db.name()) && !wantShared) {
        continue;
      }
      List<Relation> listed;
      try {
        listed = dir.relations(db);
      } catch (DataDirectoryException e) {
        // one database's damaged catalog: its tables cannot be listed, the others can
        findings.add("database " + db.name() + ": " + e.getMessage() + "; its relations are left out of this report");
        continue;
      }
      Set<Long> leaves = new HashSet<>();
      if (filter.selectsDatabase(db.name()) && filter.selectsKind(RelKind.PARTITIONED_TABLE)) {
        try {
          for (PartitionedRelation p : dir.partitionedTables(db)) {
            if (filter.selects(p.relation())) {
              partitioned.add(p);
              leaves.addAll(p.leaves());
            }
          }
        } catch (DataDirectoryException e) {
          findings.add("database " + db.name() + ": " + e.getMessage() + "; its partitioned tables are left out");
        }
      }
      Set<Long> tables = new HashSet<>(); // the OIDs of the tables selected here, whose TOAST tables a total needs
      Set<Relation> inDatabase = new java.util.LinkedHashSet<>();
      for (Relation r : listed) {
        if (r.isShared() && !wantShared) {
          continue;
        }
        boolean leaf = !r.isShared() && leaves.contains(r.oid());
        if (filter.selects(r) || leaf) {
          inDatabase.add(r);
          tables.add(r.oid());
          if (leaf) {
            parts.add(r);
          }
        }
      }
      if (totals) {
        for (Relation r : listed) {
          if (r.isToast() && (!r.isShared() || wantShared) && tables.contains(r.owner())) {
            parts.add(r);
            inDatabase.add(r);
          }
        }
      }
      selected.addAll(inDatabase);
      wantShared = false;
    }
    if (!unknown.isEmpty()) {
      throw new NoMatchException("Cannot analyze database " + String.join(", ", unknown)
          + ": no such database in this data directory; its databases are "
          + String.join(", ", databases.stream().map(Database::name).toList()));
    }
    if (selected.isEmpty() && !filter.tablePatterns().isEmpty() && filter.selectsTables()) {
      throw new NoMatchException("Cannot analyze: no table matches " + String.join(", ", filter.tablePatterns())
          + "; patterns are schema.name with * for any characters, e.g. public.* or *.orders");
    }
    selected.sort(REPORT_ORDER);
    partitioned.sort(Comparator.comparing(PartitionedRelation::relation, REPORT_ORDER));
    return new Selection(selected, partitioned, parts);
  }
}
