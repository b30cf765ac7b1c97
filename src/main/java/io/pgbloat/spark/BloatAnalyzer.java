package io.pgbloat.spark;

import io.pgbloat.catalog.DataDirectory;
import io.pgbloat.catalog.Database;
import io.pgbloat.catalog.Relation;
import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.error.DataDirectoryException;
import io.pgbloat.io.FileStore;
import io.pgbloat.io.HadoopFileStore;
import io.pgbloat.io.SegmentedFile;
import io.pgbloat.sample.BlockList;
import io.pgbloat.sample.RangePlanner;
import io.pgbloat.sample.RelationSlice;
import io.pgbloat.sample.ScanRange;
import io.pgbloat.scan.PageFinding;
import io.pgbloat.scan.RangeResult;
import io.pgbloat.stats.PartialSums;
import io.pgbloat.stats.RelationFigures;
import io.pgbloat.stats.RelationReport;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * Runs one analysis as one Spark job: the driver reads the catalog and plans ranges, the
 * executors read and count pages, the driver merges the exact partial sums per relation.
 */
public final class BloatAnalyzer {
  /** Ranges per core: enough that one slow range does not hold up the end of the job. */
  private static final int RANGES_PER_CORE = 4;
  /** 1024 blocks (8 MB): below this a task's own overhead outweighs its reading. */
  private static final long MIN_RANGE_BLOCKS = 1024;
  /** 131072 blocks (1 GB): the most a failed task repeats. */
  private static final long MAX_RANGE_BLOCKS = 131072;

  private final SparkSession spark;

  public BloatAnalyzer(SparkSession spark) {
    this.spark = spark;
  }

  public Analysis analyze(AnalyzeOptions options) {
    List<String> warnings = new ArrayList<>();
    List<String> findings = new ArrayList<>();
    List<Relation> relations;
    List<SegmentedFile> files = new ArrayList<>();
    DataDirectory dir;
    try (FileStore store = HadoopFileStore.open(options.dataDir(), new Configuration())) {
      dir = DataDirectory.open(store);
      warnings.addAll(dir.warnings());
      relations = selectRelations(dir, options.filter());
      for (Relation r : relations) {
        SegmentedFile.Measured measured = SegmentedFile.measure(store, r.relpath(), dir.control().segmentBlocks());
        files.add(measured.file());
        for (String problem : measured.problems()) {
          findings.add(r.qualifiedName() + ": " + problem);
        }
      }
    } catch (IOException e) {
      throw new DataDirectoryException("Cannot read data directory " + options.dataDir() + ": " + e.getMessage(), e);
    }

    List<RelationSlice> slices = new ArrayList<>();
    long totalBlocks = 0;
    for (int i = 0; i < relations.size(); i++) {
      SegmentedFile file = files.get(i);
      slices.add(new RelationSlice(i, file, BlockList.range(0, file.blocks())));
      totalBlocks += file.blocks();
    }
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    List<ScanRange> ranges = new RangePlanner(totalBlocks, jsc.defaultParallelism(), RANGES_PER_CORE,
        MIN_RANGE_BLOCKS, MAX_RANGE_BLOCKS).cut(slices);

    List<RangeResult> results = ranges.isEmpty() ? List.of()
        : jsc.parallelize(ranges, ranges.size())
            .mapPartitions(new ScanTask(options.dataDir(), dir.transactions(), dir.control().dataChecksums()))
            .collect();

    Map<Integer, PartialSums> sums = new HashMap<>();
    long blocksRead = 0;
    long readCalls = 0;
    for (RangeResult result : results) {
      result.sums().forEach((relation, partial) -> sums.merge(relation, partial, PartialSums::merge));
      for (PageFinding f : result.findings()) {
        findings.add(relations.get(f.relation()).qualifiedName() + " (" + relations.get(f.relation()).relpath()
            + ") block " + f.block() + ": " + f.reason());
      }
      blocksRead += result.blocksRead();
      readCalls += result.readCalls();
    }
    List<RelationReport> rows = new ArrayList<>();
    long badPages = 0;
    for (int i = 0; i < relations.size(); i++) {
      PartialSums s = sums.getOrDefault(i, new PartialSums());
      RelationFigures figures = RelationFigures.exact(files.get(i).blocks(), s);
      badPages += figures.badPages();
      rows.add(new RelationReport(relations.get(i), figures));
    }
    return new Analysis(rows, findings, badPages, warnings, blocksRead, readCalls);
  }

  /**
   * The relations the filter selects, databases in name order; each shared catalog once,
   * first, as found in the first database read.
   */
  private static List<Relation> selectRelations(DataDirectory dir, RelationFilter filter) {
    List<Database> databases = dir.databases();
    Set<String> unknown = new LinkedHashSet<>(filter.databases());
    List<Relation> selected = new ArrayList<>();
    boolean wantShared = filter.selectsShared(); // every database lists them: take them once
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
    selected.sort((a, b) -> {
      int c = a.database().compareTo(b.database());
      if (c == 0) {
        c = a.schema().compareTo(b.schema());
      }
      return c != 0 ? c : a.name().compareTo(b.name());
    });
    if (selected.isEmpty() && !filter.tablePatterns().isEmpty()) {
      throw new NoMatchException("Cannot analyze: no table matches " + String.join(", ", filter.tablePatterns())
          + "; patterns are schema.name with * for any characters, e.g. public.* or *.orders");
    }
    return selected;
  }
}
