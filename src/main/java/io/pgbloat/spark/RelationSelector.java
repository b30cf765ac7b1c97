package io.pgbloat.spark;

import io.pgbloat.catalog.DataDirectory;
import io.pgbloat.catalog.Database;
import io.pgbloat.catalog.PartitionedRelation;
import io.pgbloat.catalog.RelKind;
import io.pgbloat.catalog.Relation;
import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.catalog.RelationId;
import io.pgbloat.error.DataDirectoryException;
import io.pgbloat.page.IndexAccessMethod;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Which relations a run reads, from the catalog and the filter: the tables and the indexes the
 * filter selects, with the parts their rollups and totals need whatever the filter says of them.
 * Shared catalogs, which every database lists, are selected once. A database whose catalog
 * cannot be read is a finding; the others are still selected.
 */
final class RelationSelector {
  /** The order of the reports: database, schema, name. */
  static final Comparator<Relation> REPORT_ORDER = Comparator.comparing(Relation::database)
      .thenComparing(Relation::schema).thenComparing(Relation::name);

  private final DataDirectory dir;
  private final RelationFilter filter;
  private final List<String> findings;

  /** A selector of {@code dir}'s relations by {@code filter}, adding to {@code findings} the catalogs it cannot read. */
  RelationSelector(DataDirectory dir, RelationFilter filter, List<String> findings) {
    this.dir = dir;
    this.filter = filter;
    this.findings = findings;
  }

  /**
   * The relations with heap storage the filter selects, shared catalogs first. A partitioned
   * table the filter selects brings its leaf partitions, whatever their names; with
   * {@code totals}, a table brings its TOAST table.
   *
   * @throws NoMatchException when the filter names a database the data directory lacks, or its
   *     table patterns match no table
   */
  RelationSelection tables(boolean totals) {
    List<Database> databases = dir.databases();
    Set<String> unknown = new LinkedHashSet<>(filter.databases());
    List<Relation> selected = new ArrayList<>();
    List<PartitionedRelation> partitioned = new ArrayList<>();
    Set<RelationId> parts = new HashSet<>();
    boolean wantShared = filter.selectsShared();
    for (Database db : databases) {
      unknown.remove(db.name());
      if (!filter.selectsDatabase(db.name()) && !wantShared) {
        continue;
      }
      // one database's damaged catalog: its tables cannot be listed, the others can
      List<Relation> listed = listed(db, dir::relations, "its relations are left out of this report");
      if (listed != null) {
        selected.addAll(inDatabase(db, listed, wantShared, totals, partitioned, parts));
        wantShared = false;
      }
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
    return new RelationSelection(selected, partitioned, parts);
  }

  /**
   * Of {@code db}'s relations {@code listed} (the shared ones only if {@code wantShared}), those
   * selected, the leaves of its partitioned tables selected (added to {@code partitioned}) and,
   * with {@code totals}, their TOAST tables; the leaves and TOAST tables are added to
   * {@code parts}.
   */
  private Set<Relation> inDatabase(Database db, List<Relation> listed, boolean wantShared, boolean totals,
      List<PartitionedRelation> partitioned, Set<RelationId> parts) {
    Set<Long> leaves = partitionLeaves(db, partitioned);
    Set<Long> tables = new HashSet<>(); // the OIDs of the tables selected here, whose TOAST tables a total needs
    Set<Relation> selected = new LinkedHashSet<>();
    for (Relation r : listed) {
      if (r.isShared() && !wantShared) {
        continue;
      }
      boolean leaf = !r.isShared() && leaves.contains(r.oid());
      if (filter.selects(r) || leaf) {
        selected.add(r);
        tables.add(r.oid());
        if (leaf) {
          parts.add(r.id());
        }
      }
    }
    if (totals) {
      for (Relation r : listed) {
        if (r.isToast() && (!r.isShared() || wantShared) && tables.contains(r.owner())) {
          parts.add(r.id());
          selected.add(r);
        }
      }
    }
    return selected;
  }

  /** The OIDs of the leaves of {@code db}'s partitioned tables the filter selects, which go to {@code partitioned}. */
  private Set<Long> partitionLeaves(Database db, List<PartitionedRelation> partitioned) {
    Set<Long> leaves = new HashSet<>();
    if (!filter.selectsDatabase(db.name()) || !filter.selectsKind(RelKind.PARTITIONED_TABLE)) {
      return leaves;
    }
    List<PartitionedRelation> listed = listed(db, dir::partitionedTables, "its partitioned tables are left out");
    for (PartitionedRelation p : listed == null ? List.<PartitionedRelation>of() : listed) {
      if (filter.selects(p.relation())) {
        partitioned.add(p);
        leaves.addAll(p.leaves());
      }
    }
    return leaves;
  }

  /**
   * The indexes (every access method) to read: those the filter selects when the index report
   * is asked for ({@code report}), the indexes of the tables in {@code owners} for their totals,
   * and the leaves of the partitioned indexes selected; shared ones once.
   */
  RelationSelection indexes(boolean report, Set<RelationId> owners) {
    Map<String, Relation> byPath = new TreeMap<>();
    Set<RelationId> parts = new HashSet<>();
    List<PartitionedRelation> partitioned = new ArrayList<>();
    for (Database db : dir.databases()) {
      if (!filter.selectsDatabase(db.name()) && !filter.selectsShared()) {
        continue;
      }
      // pg_index is read only here: a damaged one is a finding of its own
      List<Relation> listed = listed(db, d -> indexesOf(d, report, partitioned, parts),
          "its indexes are left out of this report");
      for (Relation index : listed == null ? List.<Relation>of() : listed) {
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
    partitioned.sort(Comparator.comparing(PartitionedRelation::relation, REPORT_ORDER));
    return new RelationSelection(indexes, partitioned, parts);
  }

  /**
   * {@code db}'s indexes; when the index report is asked for ({@code report}), its partitioned
   * indexes whose names the filter selects go to {@code partitioned}, their leaves to {@code parts}.
   */
  private List<Relation> indexesOf(Database db, boolean report, List<PartitionedRelation> partitioned,
      Set<RelationId> parts) {
    List<Relation> indexes = dir.indexes(db);
    if (report && filter.selectsDatabase(db.name()) && filter.selectsKind(RelKind.PARTITIONED_INDEX)) {
      for (PartitionedRelation p : dir.partitionedIndexes(db)) {
        if (filter.selectsName(p.relation())) {
          partitioned.add(p);
          parts.addAll(p.leafIds());
        }
      }
    }
    return indexes;
  }

  /**
   * The heap tables (and TOAST tables) of the btree and hash indexes among {@code indexes} that
   * are not among {@code read}, each once: a btree's rebuild keeps as many heap TIDs as its
   * table has live tuples, and a hash build inserts no more than those.
   */
  List<Relation> tablesOf(List<Relation> indexes, List<Relation> read) {
    Set<RelationId> have = new HashSet<>();
    read.forEach(r -> have.add(r.id()));
    Set<RelationId> wanted = new LinkedHashSet<>();
    for (Relation index : indexes) {
      boolean rebuiltFromItsTable = index.am().equals(IndexAccessMethod.BTREE.amname())
          || index.am().equals(IndexAccessMethod.HASH.amname());
      if (rebuiltFromItsTable && index.owner() != 0 && !have.contains(index.ownerId())) {
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
        continue; // a damaged catalog, a finding of tables' already: its indexes' rebuilds keep every entry
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
   * {@code list} of {@code db}, or null when its catalog cannot be read: then a finding that
   * {@code leftOut}.
   */
  private <T> List<T> listed(Database db, Function<Database, List<T>> list, String leftOut) {
    try {
      return list.apply(db);
    } catch (DataDirectoryException e) {
      findings.add("database " + db.name() + ": " + e.getMessage() + "; " + leftOut);
      return null;
    }
  }
}
