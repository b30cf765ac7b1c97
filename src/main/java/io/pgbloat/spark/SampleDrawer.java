package io.pgbloat.spark;

import io.pgbloat.catalog.DataDirectory;
import io.pgbloat.catalog.Relation;
import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.io.read.StartedMainFork;
import io.pgbloat.io.store.ConcurrentReads;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.sample.BlockSampler;
import io.pgbloat.sample.GinPendingList;
import io.pgbloat.sample.IndexWholeBlocks;
import io.pgbloat.sample.RelationSample;
import io.pgbloat.sample.SamplePlanner;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.sample.VisibilityMap;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Measures the selected relations' main forks and draws each one's first sample. A table whose
 * sample would be all its blocks is read whole; a larger one is sampled by its seed, stratified
 * by its visibility map ({@link SamplePlanner}). Of an index, the metapage always, and a sample
 * of its other blocks as large as a table's, with the pages its access method keeps few and
 * full read whole ({@link IndexWholeBlocks}). A relation read only as a part of a rollup, a total
 * or an index's rebuild is kept whatever its size, and not reported unless the filter selects it.
 */
final class SampleDrawer {
  private final FileStore store;
  private final DataDirectory dir;
  private final AnalyzeOptions options;
  private final List<String> findings;
  private final List<String> warnings;

  /**
   * A drawer of {@code options}' samples of {@code dir}'s relations in {@code store}, adding to
   * {@code findings} the problems of their files and to {@code warnings} what changes no figure.
   */
  SampleDrawer(FileStore store, DataDirectory dir, AnalyzeOptions options, List<String> findings,
      List<String> warnings) {
    this.store = store;
    this.dir = dir;
    this.options = options;
    this.findings = findings;
    this.warnings = warnings;
  }

  /** The heap relations drawn, as the plan's parallel lists ({@link AnalysisPlan}). */
  static final class Tables {
    final List<Relation> relations = new ArrayList<>();
    final List<SegmentedFile> files = new ArrayList<>();
    final List<BlockList> allVisible = new ArrayList<>();
    final List<RelationSample> samples = new ArrayList<>();
    final Set<Integer> unreported = new HashSet<>();
  }

  /**
   * A table measured, to be drawn: its main fork, whether it is reported, and the blocks its
   * first sample wants (all of them: read whole, no visibility map needed).
   */
  private record TableToDraw(Relation relation, SegmentedFile file, boolean reported, long wanted) {
    boolean sampled() {
      return wanted < file.blocks();
    }
  }

  /** A table's all-visible blocks, and what made its map's pages unusable. */
  private record VisibleBlocks(BlockList blocks, List<String> problems) {
    static final VisibleBlocks NONE = new VisibleBlocks(BlockList.of(), List.of());
  }

  /**
   * Measures each of {@code relations}' main forks and draws its first sample of {@code size}
   * into {@code tables}, reading the visibility maps of those sampled (all in flight at once on
   * a store that rewards it); {@code part} keeps a relation whatever the filter says (a leaf
   * partition, a TOAST table, a btree's table).
   */
  void drawTables(Tables tables, List<Relation> relations, Predicate<Relation> part, SampleSize size)
      throws IOException {
    List<TableToDraw> measured = new ArrayList<>();
    for (Relation r : relations) {
      TableToDraw table = measure(r, part.test(r), size);
      if (table != null) {
        measured.add(table);
      }
    }
    List<VisibleBlocks> visible = ConcurrentReads.each(store, measured, this::visibleBlocks);
    for (int i = 0; i < measured.size(); i++) {
      TableToDraw table = measured.get(i);
      VisibleBlocks map = visible.get(i);
      map.problems().forEach(p -> warnings.add(table.relation().qualifiedName() + ": " + p));
      RelationSample sample = table.sampled()
          ? SamplePlanner.plan(table.file().blocks(), map.blocks(), table.wanted(), options.seedFor(table.relation()))
          : RelationSample.everything(table.file().blocks());
      if (!table.reported()) {
        tables.unreported.add(tables.relations.size());
      }
      tables.relations.add(table.relation());
      tables.files.add(table.file());
      tables.allVisible.add(map.blocks());
      tables.samples.add(sample);
    }
  }

  /** {@code r} measured; null when it is neither reported nor a {@code part}, or not a heap. */
  private TableToDraw measure(Relation r, boolean part, SampleSize size) throws IOException {
    if (!r.am().equals(Relation.HEAP)) {
      warnings.add(r.qualifiedName() + ": its table access method is " + r.am() + ", not heap, whose pages "
          + "this tool reads; it is left out of the report");
      return null;
    }
    SegmentedFile.Measured measured = mainFork(r);
    // a damaged file is reported whatever its size: a missing one measures 0 blocks
    measured.problems().forEach(p -> findings.add(r.qualifiedName() + ": " + p));
    boolean reported = options.filter().selects(r) && options.filter().selectsSize(measured.file().bytes());
    if (!reported && !part) {
      return null;
    }
    return new TableToDraw(r, measured.file(), reported, size.firstSample(measured.file().blocks()));
  }

  /** The all-visible blocks of a sampled table; none of one read whole, which needs no strata. */
  private VisibleBlocks visibleBlocks(TableToDraw table) throws IOException {
    if (!table.sampled()) {
      return VisibleBlocks.NONE;
    }
    List<String> problems = new ArrayList<>();
    BlockList blocks = VisibilityMap.allVisible(store, table.relation().relpath(), dir.control().segmentBlocks(),
        table.file().blocks(), dir.control().dataChecksums(), problems);
    return new VisibleBlocks(blocks, problems);
  }

  /**
   * Measures the {@code selected} indexes' main forks and draws each one's blocks to read; those
   * the filter does not select (or too small) are kept only as {@link RelationSelection#parts},
   * and every one is unreported unless the index report is asked for ({@code report}). A
   * target-RSE run samples them at the default size.
   */
  IndexPlan drawIndexes(RelationSelection selected, boolean report) throws IOException {
    RelationFilter filter = options.filter();
    SampleSize size = options.sampleSize().mode() == SampleSize.Mode.TARGET_RSE ? SampleSize.DEFAULT
        : options.sampleSize();
    List<Relation> kept = new ArrayList<>();
    List<SegmentedFile> files = new ArrayList<>();
    List<BlockList> samples = new ArrayList<>();
    List<IndexWholeBlocks> wholeBlocks = new ArrayList<>();
    List<GinPendingList> pendingLists = new ArrayList<>();
    Set<Integer> unreported = new HashSet<>();
    for (Relation index : selected.relations()) {
      SegmentedFile.Measured measured = mainFork(index);
      measured.problems().forEach(p -> findings.add(index.qualifiedName() + ": " + p));
      boolean reported = report && filter.selects(index) && filter.selectsSize(measured.file().bytes());
      if (!reported && !selected.parts().contains(index.id())) {
        continue;
      }
      if (!reported) {
        unreported.add(kept.size());
      }
      IndexBlocks blocks = indexBlocks(index, measured.file(), size);
      kept.add(index);
      files.add(measured.file());
      samples.add(blocks.sample());
      wholeBlocks.add(blocks.whole());
      pendingLists.add(IndexAccessMethod.GIN.equals(IndexAccessMethod.named(index.am()))
          ? GinPendingList.of(store, measured.file(), dir.pageRules()) : GinPendingList.NONE);
    }
    return new IndexPlan(kept, files, samples, wholeBlocks, pendingLists, unreported,
        PartitionRollup.of(selected.partitioned(), kept));
  }

  /**
   * An index's blocks to read, and among them those read whole whatever the sample's size
   * (empty when none, or when every block is read).
   */
  private record IndexBlocks(BlockList sample, IndexWholeBlocks whole) {}

  /** The blocks to read of {@code index}, in {@code file}, its other blocks sampled at {@code size}. */
  private IndexBlocks indexBlocks(Relation index, SegmentedFile file, SampleSize size) throws IOException {
    // an access method without a page counter is listed with its size, its pages not read
    IndexAccessMethod am = IndexAccessMethod.named(index.am());
    if (am == null) {
      return new IndexBlocks(BlockList.of(), IndexWholeBlocks.NONE);
    }
    long blocks = file.blocks();
    BlockList sample = indexSample(blocks, size.firstSample(Math.max(0, blocks - 1)), options.seedFor(index));
    if (sample.size() >= blocks) {
      return new IndexBlocks(sample, IndexWholeBlocks.NONE);
    }
    List<String> problems = new ArrayList<>();
    IndexWholeBlocks whole = IndexWholeBlocks.of(store, file, am, dir.pageRules(), problems);
    problems.forEach(p -> findings.add(index.qualifiedName() + ": " + p));
    return new IndexBlocks(union(sample, whole.blocks()), whole);
  }

  /**
   * The relation's main fork as a server started on the copy has it: an unlogged one's may be
   * its init fork, and where the copy's own main fork is set aside for it, a relation the
   * filter selects is named in a warning that says why.
   */
  private SegmentedFile.Measured mainFork(Relation r) throws IOException {
    int segmentBlocks = dir.control().segmentBlocks();
    if (!r.isUnlogged()) {
      return SegmentedFile.measure(store, r.relpath(), segmentBlocks);
    }
    StartedMainFork main = StartedMainFork.ofUnlogged(store, r.relpath(), segmentBlocks,
        dir.startupRecovery().runs());
    if (main.setAside() != null && main.setAside().blocks() > 0 && options.filter().selects(r)) {
      warnings.add(setAsideWarning(r, main));
    }
    return main.measured();
  }

  /**
   * Why an unlogged relation is not read from the main fork the copy holds: a start resets it
   * to its init fork; and what the copy holds is only what the running server happened to write
   * (a checkpoint of a running server skips unlogged buffers, {@code BufferSync} in
   * {@code src/backend/storage/buffer/bufmgr.c}), often pages of zeros.
   */
  private String setAsideWarning(Relation r, StartedMainFork main) {
    return r.qualifiedName() + " (" + r.relpath() + "): unlogged, and starting a server on this copy runs recovery ("
        + dir.startupRecovery().cause() + "), which resets it to its init fork: reported as that, "
        + main.measured().file().blocks() + " block(s); the " + main.setAside().blocks() + " block(s) of its main "
        + "fork in the copy are what the running server last wrote of it, not its contents";
  }

  /** The blocks of both lists, once each, in order. */
  static BlockList union(BlockList a, BlockList b) {
    TreeSet<Long> blocks = new TreeSet<>();
    for (BlockList list : List.of(a, b)) {
      list.forEach(blocks::add);
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
}
