package io.pgbloat.spark;

import io.pgbloat.catalog.Relation;
import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.sample.GinPendingList;
import io.pgbloat.sample.IndexWholeBlocks;
import java.io.Serializable;
import java.util.List;
import java.util.Set;

/**
 * The indexes to report and the blocks to read of each: the metapage (block 0) always, and
 * every other block, or a simple random sample of blocks 1 to N - 1 with the pages some
 * methods keep few and full (a GIN pending list, a BRIN range map) read whole; none of an
 * index whose access method this tool does not read. Lists are parallel, numbered as
 * {@link AnalysisPlan}'s.
 *
 * @param relations the indexes (with storage), in report order
 * @param files their main forks
 * @param samples the blocks to read, sorted
 * @param wholeBlocks per index, the blocks among its sample read whole whatever the sample's
 *     size (a GIN pending list, a BRIN range map) and the kinds they hold every page of; none
 *     when every block is read
 * @param pendingLists per index, its GIN pending list as read before the scan ({@link GinPendingList#NONE}
 *     for another method)
 * @param unreported the indexes (by number) read only as parts of a rollup or a table's total
 * @param rollups the selected partitioned indexes, each to sum its leaves' rows
 */
public record IndexPlan(List<Relation> relations, List<SegmentedFile> files, List<BlockList> samples,
    List<IndexWholeBlocks> wholeBlocks, List<GinPendingList> pendingLists, Set<Integer> unreported,
    List<PartitionRollup> rollups) implements Serializable {
  public static final IndexPlan NONE = new IndexPlan(List.of(), List.of(), List.of(), List.of(), List.of(), Set.of(),
      List.of());

  public IndexPlan {
    unreported = Set.copyOf(unreported);
    rollups = List.copyOf(rollups);
  }

  /** Per index, its access method, or null for one whose pages are not read (an extension's). */
  public List<IndexAccessMethod> accessMethods() {
    List<IndexAccessMethod> methods = new java.util.ArrayList<>();
    relations.forEach(r -> methods.add(IndexAccessMethod.named(r.am())));
    return methods;
  }

  /** Per index, its fillfactor, to which a build would fill its pages again. */
  public List<Integer> fillfactors() {
    return relations.stream().map(Relation::fillfactor).toList();
  }
}
