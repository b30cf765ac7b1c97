package io.pgbloat.spark;

import io.pgbloat.catalog.PartitionedRelation;
import io.pgbloat.catalog.Relation;
import io.pgbloat.catalog.RelationId;
import java.util.List;
import java.util.Set;

/**
 * The relations (or the indexes) a run reads, as {@link RelationSelector} chose them.
 *
 * @param relations those the filter selects and the parts below, in report order, each once
 * @param partitioned the partitioned tables (or indexes) selected, in report order, each to sum
 *     its leaves
 * @param parts those read only as parts of a rollup or a total (a leaf partition, a TOAST table,
 *     a table's index), whatever the filter says of them
 */
record RelationSelection(List<Relation> relations, List<PartitionedRelation> partitioned, Set<RelationId> parts) {}
