package io.pgbloat.spark;

import io.pgbloat.catalog.DataDirectory;
import io.pgbloat.catalog.Database;
import io.pgbloat.catalog.Relation;
import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.error.DataDirectoryException;
import io.pgbloat.io.FileStore;
import io.pgbloat.io.HadoopFileStore;
import io.pgbloat.io.SegmentedFile;
import io.pgbloat.page.PageHeader;
import io.pgbloat.io.BlockList;
import io.pgbloat.sample.RelationSample;
import io.pgbloat.sample.SamplePlanner;
import io.pgbloat.sample.VisibilityMap;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The driver's first step, before Spark is needed: open the data directory, read its
 * catalog, select the relations, measure their files, choose the blocks to read.
 */
public final class AnalysisPlanner implements AutoCloseable {
  private static final Comparator<Relation> REPORT_ORDER = Comparator.comparing(Relation::database)
      .thenComparing(Relation::schema).thenComparing(Relation::name);

  private final AnalyzeOptions options;
  private final FileStore store;
  private final DataDirectory dir;

  private AnalysisPlanner(AnalyzeOptions options, FileStore store, DataDirectory dir) {
    this.options = options;
    this.store = store;
    this.dir = dir;
  }

  /** Opens and plans in one step. */
  public static AnalysisPlan plan(AnalyzeOptions options) {
    try (AnalysisPlanner planner = open(options)) {
      return planner.plan();
    }
  }

  /**
   * Opens the data directory and checks it is one this tool reads (version, control file):
   * quick, so a wrong path fails before anything slow starts.
   */
  public static AnalysisPlanner open(AnalyzeOptions options) {
    FileStore store = null;
    try {
      store = HadoopFileStore.open(options.dataDir(), HadoopFileStore.configuration());
      return new AnalysisPlanner(options, store, DataDirectory.open(store));
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
    try {
      List<Relation> relations = new ArrayList<>();
      List<SegmentedFile> files = new ArrayList<>();
      List<BlockList> allVisible = new ArrayList<>();
      List<RelationSample> samples = new ArrayList<>();
      List<String> findings = new ArrayList<>();
      List<String> warnings = new ArrayList<>(dir.warnings());
      int segmentBlocks = dir.control().segmentBlocks();
      for (Relation r : selectRelations(dir, options.filter())) {
        SegmentedFile.Measured measured = SegmentedFile.measure(store, r.relpath(), segmentBlocks);
        long blocks = measured.file().blocks();
        if (!options.filter().selectsSize(blocks * PageHeader.BLCKSZ)) {
          continue;
        }
        relations.add(r);
        for (String problem : measured.problems()) {
          findings.add(r.qualifiedName() + ": " + problem);
        }
        long wanted = options.sampleSize().firstSample(blocks);
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
      return new AnalysisPlan(options.dataDir(), options, relations, files, allVisible, samples,
          dir.transactions(), dir.control().dataChecksums(), findings, warnings);
    } catch (IOException e) {
      throw new DataDirectoryException("Cannot read data directory " + options.dataDir() + ": " + e.getMessage(), e);
    }
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
   * The relations the filter selects, in report order (database, schema, name); shared
   * catalogs, which every database lists, once and first.
   */
  static List<Relation> selectRelations(DataDirectory dir, RelationFilter filter) {
    List<Database> databases = dir.databases();
    Set<String> unknown = new LinkedHashSet<>(filter.databases());
    List<Relation> selected = new ArrayList<>();
    boolean wantShared = filter.selectsShared();
    for (Database db : databases) {
      unknown.remove(db.name());
      if (!filter.selectsDatabase(db.name()) && !wantShared) {
        continue;
      }
      for (Relation r : dir.relations(db)) {
        if ((!r.isShared() || wantShared) && filter.selects(r)) {
          selected.add(r);
        }
      }
      wantShared = false;
    }
    if (!unknown.isEmpty()) {
      throw new NoMatchException("Cannot analyze database " + String.join(", ", unknown)
          + ": no such database in this data directory; its databases are "
          + String.join(", ", databases.stream().map(Database::name).toList()));
    }
    if (selected.isEmpty() && !filter.tablePatterns().isEmpty()) {
      throw new NoMatchException("Cannot analyze: no table matches " + String.join(", ", filter.tablePatterns())
          + "; patterns are schema.name with * for any characters, e.g. public.* or *.orders");
    }
    selected.sort(REPORT_ORDER);
    return selected;
  }
}
