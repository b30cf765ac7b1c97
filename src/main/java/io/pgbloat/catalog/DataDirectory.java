package io.pgbloat.catalog;

import io.pgbloat.error.DataDirectoryException;
import io.pgbloat.error.NotADataDirectoryException;
import io.pgbloat.error.UnsupportedClusterException;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.PageHeader;
import io.pgbloat.page.PageRules;
import io.pgbloat.page.TableColumns;
import io.pgbloat.xact.ClusterTransactions;
import io.pgbloat.xact.CommittedSnapshot;
import io.pgbloat.xact.PreparedTransactions;
import io.pgbloat.xact.TransactionStatus;
import io.pgbloat.xact.WalOutcomes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A data directory read offline: its version, control file, prepared transactions,
 * databases and the relations with storage in each, found as the server would find them:
 * {@code global/pg_filenode.map} gives pg_database, each database's {@code pg_filenode.map}
 * gives its pg_class, pg_class gives everything else. What differs between versions is
 * {@link PostgresVersion}'s; the catalog rows are {@link CatalogReader}'s, the paths
 * {@link RelationPaths}'.
 */
public final class DataDirectory {

  private final PostgresVersion version;
  private final ControlFile control;
  private final ClusterTransactions transactions;
  private final StartupRecovery startupRecovery;
  private final OptionalLong backupStart;
  private final List<String> warnings;
  private final RelationPaths paths;
  private final CatalogReader catalog;
  private final TableStatisticsReader tableStatistics;
  /**
   * Each database's catalog rows, read on first use: its relations, indexes and partitioned
   * tables are listed from one read (one planner uses a DataDirectory, on one thread).
   */
  private final Map<Database, DatabaseRows> rows = new HashMap<>();
  /** Each database's valid pg_index rows, read on first use (partitioned indexes and indexes share them). */
  private final Map<Database, Map<Integer, CatalogReader.IndexRow>> validIndexes = new HashMap<>();
  /** Each database's pg_inherits (child to parent), read on first use (partitioned tables and indexes share it). */
  private final Map<Database, Map<Integer, Integer>> parents = new HashMap<>();

  /**
   * The rows of one database's catalogs that every listing starts from.
   *
   * @param db the database
   * @param map its pg_filenode.map
   * @param classes its pg_class
   * @param schemas schema names by namespace OID (pg_namespace)
   * @param accessMethods access method names by OID (pg_am)
   */
  private record DatabaseRows(Database db, RelationMap map, List<ClassRow> classes, Map<Integer, String> schemas,
      Map<Integer, String> accessMethods) {
    /** relnamespace's name. */
    String schemaName(ClassRow c) {
      return schemas.getOrDefault(c.namespace(), "#" + Integer.toUnsignedString(c.namespace()));
    }

    /** relam's name; a relation of relam 0 (before table access methods, and TOAST tables) is heap. */
    String amName(ClassRow c) {
      return c.am() == 0 ? Relation.HEAP : accessMethods.getOrDefault(c.am(), "#" + Integer.toUnsignedString(c.am()));
    }

    /** The relation of row {@code c}: of no database when shared; {@code relpath} empty without storage. */
    Relation relation(ClassRow c, String relpath, String toastOf, int fillfactor, String am, long owner,
        boolean deduplicateItems, TableStatistics tableStatistics) {
      return relation(c, relpath, toastOf, fillfactor, am, owner, deduplicateItems, tableStatistics,
          TableColumns.AS_STORED);
    }

    Relation relation(ClassRow c, String relpath, String toastOf, int fillfactor, String am, long owner,
        boolean deduplicateItems, TableStatistics tableStatistics, TableColumns columns) {
      return new Relation(c.shared() ? "" : db.name(), schemaName(c), c.name(), c.kind(), relpath, toastOf,
          Integer.toUnsignedLong(c.oid()), fillfactor, c.persistence(), am, owner, deduplicateItems, tableStatistics,
          columns);
    }
  }

  private DataDirectory(FileStore files, PostgresVersion version, ControlFile control,
      ClusterTransactions transactions, StartupRecovery startupRecovery, OptionalLong backupStart,
      List<String> warnings) {
    this.version = version;
    this.backupStart = backupStart;
    this.control = control;
    this.transactions = transactions;
    this.startupRecovery = startupRecovery;
    this.warnings = warnings;
    this.paths = new RelationPaths(files, version, control.catalogVersion());
    TransactionStatus status = new TransactionStatus(files, transactions);
    CatalogHeap heap = new CatalogHeap(files, control.segmentBlocks(), pageRules().verifier(),
        new CommittedSnapshot(status));
    this.catalog = new CatalogReader(heap, version, paths);
    this.tableStatistics = new TableStatisticsReader(catalog, version.tupleEstimate());
  }

  /**
   * Checks that {@code files} is the root of a data directory of a version this tool reads
   * and reads its control file and prepared transactions.
   */
  public static DataDirectory open(FileStore files) {
    try {
      if (!files.isDirectory("")) {
        throw new NotADataDirectoryException("Cannot read data directory " + files.root()
            + ": it does not exist or is not a directory; give the path of a PostgreSQL data directory");
      }
      if (files.length("PG_VERSION") < 0) {
        throw new NotADataDirectoryException("Cannot read data directory " + files.root()
            + ": it has no PG_VERSION file, so it is not a PostgreSQL data directory; give the directory that holds PG_VERSION, global/ and base/");
      }
      PostgresVersion version;
      try {
        version = PostgresVersion.of(new String(files.readAll("PG_VERSION"), StandardCharsets.US_ASCII));
      } catch (IllegalArgumentException e) {
        throw new UnsupportedClusterException("Cannot read data directory " + files.root() + ": " + e.getMessage());
      }
      if (files.length("global/pg_control") < 0) {
        throw new DataDirectoryException("Cannot read data directory " + files.root()
            + ": global/pg_control is missing; the data directory is incomplete");
      }
      ControlFile control = ControlFile.parse(files.readAll("global/pg_control"), version.control(), version.major());
      if (control.blockSize() != PageHeader.BLCKSZ) {
        throw new UnsupportedClusterException("Cannot read data directory " + files.root()
            + ": its block size is " + control.blockSize() + " bytes; this tool reads " + PageHeader.BLCKSZ + " only");
      }
      List<String> warnings = new ArrayList<>();
      if (control.standbyMayLackReplayedChanges()) {
        warnings.add(String.format("this standby was stopped with changes it replayed past its last restartpoint "
            + "(minimum recovery point %X/%X, restartpoint record at %X/%X): its files may hold some of them and not "
            + "others, so figures may be off; let it replay a CHECKPOINT of the primary before stopping it",
            control.minRecoveryPoint() >>> 32, (int) control.minRecoveryPoint(), control.checkpoint() >>> 32,
            (int) control.checkpoint()));
      }
      if (!control.cleanlyShutDown()) {
        warnings.add("the cluster was not shut down cleanly (pg_control state: " + control.stateName()
            + "); figures describe the files as they are, and may differ from what the server shows after recovery");
      }
      int[] prepared = PreparedTransactions.read(files, version.twoPhase(), warnings);
      // a copy of a running server: the WAL it holds records outcomes its pg_xact may lack
      OptionalLong backupStart = BackupLabel.start(files);
      WalOutcomes wal = control.cleanlyShutDown() ? WalOutcomes.NONE
          : WalOutcomes.read(files, version.wal(), BackupLabel.walStart(backupStart, control.checkpointRedo()));
      ClusterTransactions transactions = new ClusterTransactions(control.nextXid(), control.nextMulti(),
          control.nextMultiOffset(), control.oldestActiveXid(), prepared, wal);
      return new DataDirectory(files, version, control, transactions, StartupRecovery.of(files, control),
          backupStart, warnings);
    } catch (IOException e) {
      throw new DataDirectoryException("Cannot read data directory " + files.root() + ": " + e.getMessage(), e);
    }
  }

  public PostgresVersion version() {
    return version;
  }

  /**
   * The START WAL LOCATION of the copy's {@code backup_label}: a base backup's, taken while the
   * server ran; empty for a copy without one.
   */
  public OptionalLong backupStart() {
    return backupStart;
  }

  /**
   * Where recovery of the copy would start reading WAL: its backup's start, else its last
   * checkpoint's redo point. Every change before it is in the copy's files, written out by the
   * checkpoint there.
   */
  public long walStart() {
    return BackupLabel.walStart(backupStart, control.checkpointRedo());
  }

  public ControlFile control() {
    return control;
  }

  public ClusterTransactions transactions() {
    return transactions;
  }

  /**
   * Whether a server started on these files runs recovery first, which resets every unlogged
   * relation to its init fork: what the copy holds of their main forks is then not theirs.
   */
  public StartupRecovery startupRecovery() {
    return startupRecovery;
  }

  /** How this cluster's pages are checked (checksums) and counted (its version's free space). */
  public PageRules pageRules() {
    return new PageRules(control.dataChecksums(), version.freeSpace());
  }

  /** Things the user should know that do not stop the report. */
  public List<String> warnings() {
    return List.copyOf(warnings);
  }

  /**
   * The databases whose tables are reported, by name: all but template0 (never connectable,
   * so never changed) and databases whose DROP was interrupted (their files may be gone).
   */
  public List<Database> databases() {
    List<Database> databases = new ArrayList<>();
    for (Database db : catalog.databases()) {
      if (!db.name().equals("template0")) {
        databases.add(db);
      }
    }
    databases.sort((a, b) -> a.name().compareTo(b.name()));
    return databases;
  }

  /**
   * Every relation with heap storage in {@code db}: tables, TOAST tables and materialized
   * views of every schema, temporary ones excepted. Shared catalogs come back with an empty
   * database name; callers report them once for the cluster.
   */
  public List<Relation> relations(Database db) {
    DatabaseRows read = rowsOf(db);
    RelationMap global = paths.globalMap();
    Map<Integer, ClassRow> toastOwners = new HashMap<>();
    for (ClassRow c : read.classes()) {
      if (c.toastRelid() != 0) {
        toastOwners.put(c.toastRelid(), c);
      }
    }
    List<ClassRow> listed = new ArrayList<>();
    Set<Integer> rewritten = new HashSet<>();
    for (ClassRow c : read.classes()) {
      if (c.kind() == null || !c.kind().hasHeapStorage() || c.persistence() == Relation.TEMPORARY) {
        continue;
      }
      listed.add(c);
      if (c.kind() != RelKind.TOAST_TABLE) {
        rewritten.add(c.oid());
      }
    }
    // a rewrite forms each row again from these; a TOAST table's chunks it copies as formed
    Map<Integer, List<CatalogReader.AttributeRow>> columns = rewritten.isEmpty() ? Map.of()
        : catalog.columns(db, read.classes(), read.map(), rewritten);
    List<Relation> relations = new ArrayList<>();
    for (ClassRow c : listed) {
      ClassRow owner = toastOwners.get(c.oid());
      String toastOf = owner == null ? "" : read.schemaName(owner) + "." + owner.name();
      long ownerOid = owner == null ? 0 : Integer.toUnsignedLong(owner.oid());
      List<CatalogReader.AttributeRow> rows = columns.get(c.oid());
      relations.add(read.relation(c, path(read, global, c), toastOf, c.tableFillfactor(), read.amName(c), ownerOid,
          false, null, rows == null ? TableColumns.AS_STORED : CatalogReader.tableColumns(rows)));
    }
    return relations;
  }

  /**
   * Every partitioned table of {@code db} with its leaf partitions at any depth
   * (pg_inherits, followed down through partitioned sub-partitions). Temporary ones excepted.
   */
  public List<PartitionedRelation> partitionedTables(Database db) {
    DatabaseRows read = rowsOf(db);
    return partitionTrees(db, RelKind.PARTITIONED_TABLE, RelKind::hasHeapStorage,
        c -> read.relation(c, "", "", RelOptions.HEAP_DEFAULT_FILLFACTOR, "", 0, false, null));
  }

  /**
   * Every valid partitioned index of {@code db} (a partitioned table's index) with
   * the indexes of its leaf partitions at any depth, which pg_inherits lists as its children.
   */
  public List<PartitionedRelation> partitionedIndexes(Database db) {
    DatabaseRows read = rowsOf(db);
    if (read.classes().stream().noneMatch(c -> c.kind() == RelKind.PARTITIONED_INDEX)) {
      return List.of(); // pg_index need not be read for them
    }
    Map<Integer, CatalogReader.IndexRow> indexRows = indexRowsOf(db);
    List<PartitionedRelation> indexes = new ArrayList<>();
    for (PartitionedRelation p : partitionTrees(db, RelKind.PARTITIONED_INDEX, k -> k == RelKind.INDEX, c -> {
      String am = read.amName(c);
      CatalogReader.IndexRow index = indexRows.get(c.oid());
      return read.relation(c, "", "", c.indexFillfactor(am), am, index == null ? 0 : Integer.toUnsignedLong(index.table()),
          false, null);
    })) {
      if (indexRows.containsKey((int) p.relation().oid())) { // an invalid one is left out, as pg_index says
        indexes.add(p);
      }
    }
    return indexes;
  }

  /**
   * The relations of {@code parentKind} in {@code db} with the OIDs of the relations of
   * {@code leafKind} under each at any depth (pg_inherits, followed up through ancestors of
   * {@code parentKind} only: plain inheritance is no partitioning), each parent described by
   * {@code describe}.
   */
  private List<PartitionedRelation> partitionTrees(Database db, RelKind parentKind, Predicate<RelKind> leafKind,
      Function<ClassRow, Relation> describe) {
    DatabaseRows read = rowsOf(db);
    List<ClassRow> classes = read.classes();
    if (classes.stream().noneMatch(c -> c.kind() == parentKind)) {
      return List.of(); // no partitioning: pg_inherits need not be read
    }
    Map<Integer, Integer> parents = this.parents.computeIfAbsent(db, d -> catalog.parents(d, classes, read.map()));
    Map<Integer, ClassRow> byOid = new HashMap<>();
    classes.forEach(c -> byOid.put(c.oid(), c));
    Map<Integer, List<Long>> leaves = new HashMap<>();
    for (ClassRow c : classes) {
      if (c.kind() == null || !leafKind.test(c.kind()) || !parents.containsKey(c.oid())) {
        continue;
      }
      // every partitioned ancestor of a leaf sums it; a loop in a damaged catalog ends at a revisit
      Set<Integer> seen = new HashSet<>();
      for (Integer up = parents.get(c.oid()); up != null && seen.add(up); up = parents.get(up)) {
        ClassRow ancestor = byOid.get(up);
        if (ancestor == null || ancestor.kind() != parentKind) {
          break;
        }
        leaves.computeIfAbsent(up, k -> new ArrayList<>()).add(Integer.toUnsignedLong(c.oid()));
      }
    }
    List<PartitionedRelation> trees = new ArrayList<>();
    for (ClassRow c : classes) {
      if (c.kind() == parentKind && c.persistence() != Relation.TEMPORARY) {
        trees.add(new PartitionedRelation(describe.apply(c), leaves.getOrDefault(c.oid(), List.of())));
      }
    }
    return trees;
  }

  /**
   * Every index of {@code db} with storage that PostgreSQL's functions accept
   * ({@code contrib/pgstattuple}: {@link RelKind#INDEX}, indisvalid), of any access method (the
   * name in {@link Relation#am}), temporary ones excepted: user indexes, system catalog indexes,
   * TOAST indexes. Partitioned indexes have no storage and are not listed here. Each comes back
   * with an empty {@code toastOf} and its table as {@code owner}; shared catalogs' indexes have
   * an empty database name, as in {@link #relations}, and are to be reported once for the cluster.
   */
  public List<Relation> indexes(Database db) {
    DatabaseRows read = rowsOf(db);
    Map<Integer, CatalogReader.IndexRow> indexRows = indexRowsOf(db);
    RelationMap global = paths.globalMap();
    List<ClassRow> listed = new ArrayList<>();
    Set<Integer> hashTables = new HashSet<>();
    for (ClassRow c : read.classes()) {
      CatalogReader.IndexRow index = indexRows.get(c.oid());
      if (c.kind() == RelKind.INDEX && c.persistence() != Relation.TEMPORARY && index != null) {
        listed.add(c);
        if (read.amName(c).equals(IndexAccessMethod.HASH.amname())) {
          hashTables.add(index.table());
        }
      }
    }
    Map<Integer, TableStatistics> statistics = hashTables.isEmpty() ? Map.of()
        : tableStatistics.of(db, read.classes(), read.map(), hashTables);
    List<Relation> indexes = new ArrayList<>();
    for (ClassRow c : listed) {
      CatalogReader.IndexRow index = indexRows.get(c.oid());
      String am = read.amName(c);
      indexes.add(read.relation(c, path(read, global, c), "", c.indexFillfactor(am), am,
          Integer.toUnsignedLong(index.table()),
          am.equals(IndexAccessMethod.BTREE.amname()) && c.deduplicateItems() && !index.unique(),
          am.equals(IndexAccessMethod.HASH.amname()) ? statistics.get(index.table()) : null));
    }
    return indexes;
  }

  /** {@code db}'s valid pg_index rows, read once (computeIfAbsent keeps no read that failed). */
  private Map<Integer, CatalogReader.IndexRow> indexRowsOf(Database db) {
    DatabaseRows read = rowsOf(db);
    return validIndexes.computeIfAbsent(db, d -> catalog.validIndexes(d, read.classes(), read.map()));
  }

  /** {@code db}'s catalog rows, read once; a read that fails is not kept, so the next call fails alike. */
  private DatabaseRows rowsOf(Database db) {
    return rows.computeIfAbsent(db, d -> {
      RelationMap map = paths.relationMap(d);
      List<ClassRow> classes = catalog.classes(d, map);
      return new DatabaseRows(d, map, classes, catalog.namespaces(d, classes, map),
          catalog.accessMethods(d, classes, map));
    });
  }

  /** The main fork's path of row {@code c} of {@code read}, a shared catalog's by the {@code global} relation map. */
  private String path(DatabaseRows read, RelationMap global, ClassRow c) {
    return paths.relationPath(read.db(), c.name(), c.oid(), c.fileNode(), c.tablespace(),
        c.shared() ? global : read.map());
  }
}
