package io.pgbloat.catalog;

import static io.pgbloat.catalog.SystemCatalogs.*;

import io.pgbloat.error.DataDirectoryException;
import io.pgbloat.error.NotADataDirectoryException;
import io.pgbloat.error.UnsupportedClusterException;
import io.pgbloat.io.FileStore;
import io.pgbloat.page.PageHeader;
import io.pgbloat.page.PageVerifier;
import io.pgbloat.page.TextArray;
import io.pgbloat.page.Tuple;
import io.pgbloat.xact.ClusterTransactions;
import io.pgbloat.xact.CommittedSnapshot;
import io.pgbloat.xact.PreparedTransactions;
import io.pgbloat.xact.TransactionStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A PostgreSQL 15 data directory read offline: its version, control file, prepared
 * transactions, databases and the relations with heap storage in each, found as the server
 * would find them: {@code global/pg_filenode.map} gives pg_database, each database's
 * {@code pg_filenode.map} gives its pg_class, pg_class gives everything else.
 */
public final class DataDirectory {
  /** The major version this tool reads. */
  public static final String SUPPORTED_VERSION = "15";
  /** Catalog rows of these kinds have heap storage that pgstattuple reads. */
  private static final String HEAP_RELKINDS = "rtm";
  /** RELPERSISTENCE_TEMP: temporary tables belong to a session and vanish with it. */
  private static final char RELPERSISTENCE_TEMP = 't';
  /** RELKIND_INDEX: an index with storage ('I', a partitioned index, has none). */
  private static final char RELKIND_INDEX = 'i';

  private final FileStore files;
  private final ControlFile control;
  private final ClusterTransactions transactions;
  private final List<String> warnings;
  private final CatalogHeap catalogs;

  private DataDirectory(FileStore files, ControlFile control, ClusterTransactions transactions,
      List<String> warnings) {
    this.files = files;
    this.control = control;
    this.transactions = transactions;
    this.warnings = warnings;
    TransactionStatus status = new TransactionStatus(files, transactions);
    this.catalogs = new CatalogHeap(files, control.segmentBlocks(),
        new PageVerifier(control.dataChecksums()), new CommittedSnapshot(status));
  }

  /**
   * Checks that {@code files} is the root of a PostgreSQL 15 data directory and reads its
   * control file and prepared transactions.
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
      String version = new String(files.readAll("PG_VERSION"), StandardCharsets.US_ASCII).trim();
      if (!version.equals(SUPPORTED_VERSION)) {
        throw new UnsupportedClusterException("Cannot read data directory " + files.root()
            + ": it is PostgreSQL " + version + ", and this tool reads the catalog layout of PostgreSQL "
            + SUPPORTED_VERSION + " only");
      }
      if (files.length("global/pg_control") < 0) {
        throw new DataDirectoryException("Cannot read data directory " + files.root()
            + ": global/pg_control is missing; the data directory is incomplete");
      }
      ControlFile control = ControlFile.parse(files.readAll("global/pg_control"));
      if (control.blockSize() != PageHeader.BLCKSZ) {
        throw new UnsupportedClusterException("Cannot read data directory " + files.root()
            + ": its block size is " + control.blockSize() + " bytes; this tool reads " + PageHeader.BLCKSZ + " only");
      }
      List<String> warnings = new ArrayList<>();
      if (!control.cleanlyShutDown()) {
        warnings.add("the cluster was not shut down cleanly (pg_control state: " + control.stateName()
            + "); figures describe the files as they are, and may differ from what the server shows after recovery");
      }
      int[] prepared = PreparedTransactions.read(files, warnings);
      ClusterTransactions transactions = new ClusterTransactions(control.nextMulti(),
          control.nextMultiOffset(), control.oldestActiveXid(), prepared);
      return new DataDirectory(files, control, transactions, warnings);
    } catch (IOException e) {
      throw new DataDirectoryException("Cannot read data directory " + files.root() + ": " + e.getMessage(), e);
    }
  }

  public ControlFile control() {
    return control;
  }

  public ClusterTransactions transactions() {
    return transactions;
  }

  /** Things the user should know that do not stop the report. */
  public List<String> warnings() {
    return List.copyOf(warnings);
  }

  /**
   * The databases whose tables are reported: all but template0 (never connectable, so never
   * changed) and databases whose DROP was interrupted (their files may be gone).
   */
  public List<Database> databases() {
    RelationMap global = relationMap("global/pg_filenode.map");
    int fileNumber = global.fileNumber(PG_DATABASE_OID);
    if (fileNumber == 0) {
      throw new DataDirectoryException("Cannot read catalog pg_database: global/pg_filenode.map has no entry for it");
    }
    List<Database> databases = new ArrayList<>();
    for (Database db : catalogs.rows("pg_database", "global/" + Integer.toUnsignedString(fileNumber),
        PG_DATABASE, this::toDatabaseRow)) {
      if (db != null && !db.name().equals("template0")) {
        databases.add(db);
      }
    }
    databases.sort((a, b) -> a.name().compareTo(b.name()));
    return databases;
  }

  private Database toDatabaseRow(Tuple t) {
    if (t.int32(DATABASE_CONNLIMIT) == DATCONNLIMIT_INVALID_DB) {
      return null;
    }
    int oid = t.int32(DATABASE_OID);
    int tablespace = t.int32(DATABASE_TABLESPACE);
    return new Database(oid, t.name(DATABASE_NAME), tablespace, databaseDirectory(oid, tablespace));
  }

  /**
   * Every relation with heap storage in {@code db}: tables, TOAST tables and materialized
   * views of every schema, temporary ones excepted. Shared catalogs come back with an empty
   * database name; callers report them once for the cluster.
   */
  public List<Relation> relations(Database db) {
    RelationMap map = relationMap(db.directory() + "/pg_filenode.map");
    List<ClassRow> classes = classes(db, map);
    Map<Integer, String> schemas = namespaces(db, classes, map);
    RelationMap global = relationMap("global/pg_filenode.map");

    Map<Integer, ClassRow> toastOwners = new HashMap<>();
    for (ClassRow c : classes) {
      if (c.toastRelid() != 0) {
        toastOwners.put(c.toastRelid(), c);
      }
    }
    List<Relation> relations = new ArrayList<>();
    for (ClassRow c : classes) {
      if (HEAP_RELKINDS.indexOf(c.kind()) < 0 || c.persistence() == RELPERSISTENCE_TEMP) {
        continue;
      }
      ClassRow owner = toastOwners.get(c.oid());
      String toastOf = owner == null ? "" : schemaName(schemas, owner) + "." + owner.name();
      relations.add(new Relation(c.shared() ? "" : db.name(), schemaName(schemas, c), c.name(), c.kind(),
          relationPath(db, c, c.shared() ? global : map), toastOf, Integer.toUnsignedLong(c.oid()),
          c.fillfactor()));
    }
    return relations;
  }

  /**
   * Every btree index of {@code db} that {@code pgstatindex()} accepts
   * ({@code contrib/pgstattuple/pgstatindex.c}: relkind 'i', relam BTREE_AM_OID, indisvalid),
   * temporary ones excepted: user indexes, system catalog indexes, TOAST indexes.
   * Partitioned indexes (relkind 'I') have no storage and are not listed. Each comes back as a
   * {@link Relation} of kind 'i' with an empty {@code toastOf}; shared catalogs' indexes have an
   * empty database name, as in {@link #relations}, and are to be reported once for the cluster.
   */
  public List<Relation> btreeIndexes(Database db) {
    RelationMap map = relationMap(db.directory() + "/pg_filenode.map");
    List<ClassRow> classes = classes(db, map);
    Map<Integer, String> schemas = namespaces(db, classes, map);
    Set<Integer> valid = validIndexes(db, classes, map);
    RelationMap global = relationMap("global/pg_filenode.map");
    List<Relation> indexes = new ArrayList<>();
    for (ClassRow c : classes) {
      if (c.kind() != RELKIND_INDEX || c.am() != BTREE_AM_OID || c.persistence() == RELPERSISTENCE_TEMP
          || !valid.contains(c.oid())) {
        continue;
      }
      indexes.add(new Relation(c.shared() ? "" : db.name(), schemaName(schemas, c), c.name(), c.kind(),
          relationPath(db, c, c.shared() ? global : map), "", Integer.toUnsignedLong(c.oid())));
    }
    return indexes;
  }

  private List<ClassRow> classes(Database db, RelationMap map) {
    int classFile = map.fileNumber(PG_CLASS_OID);
    if (classFile == 0) {
      throw new DataDirectoryException("Cannot read catalog pg_class of database " + db.name()
          + ": " + db.directory() + "/pg_filenode.map has no entry for it");
    }
    return catalogs.rows("pg_class of database " + db.name(),
        db.directory() + "/" + Integer.toUnsignedString(classFile), PG_CLASS, ClassRow::of);
  }

  /** The indexrelids of pg_index rows with indisvalid: pgstatindex refuses the others. */
  private Set<Integer> validIndexes(Database db, List<ClassRow> classes, RelationMap map) {
    ClassRow pgIndex = classes.stream().filter(c -> c.oid() == PG_INDEX_OID).findFirst()
        .orElseThrow(() -> new DataDirectoryException("Cannot read catalog pg_index of database "
            + db.name() + ": pg_class has no row for it; the catalog is damaged"));
    // map each row while its page is in the buffer (see namespaces)
    Set<Integer> valid = new HashSet<>();
    for (Integer indexrelid : catalogs.rows("pg_index of database " + db.name(), relationPath(db, pgIndex, map),
        PG_INDEX, t -> t.bool(INDEX_ISVALID) ? t.int32(INDEX_INDEXRELID) : null)) {
      if (indexrelid != null) {
        valid.add(indexrelid);
      }
    }
    return valid;
  }

  private Map<Integer, String> namespaces(Database db, List<ClassRow> classes, RelationMap map) {
    ClassRow pgNamespace = classes.stream().filter(c -> c.oid() == PG_NAMESPACE_OID).findFirst()
        .orElseThrow(() -> new DataDirectoryException("Cannot read catalog pg_namespace of database "
            + db.name() + ": pg_class has no row for it; the catalog is damaged"));
    // map each row while its page is in the buffer: the reader reuses the buffer for the next
    // page, so a Tuple kept beyond it would read another page's bytes
    Map<Integer, String> schemas = new HashMap<>();
    for (Map.Entry<Integer, String> e : catalogs.rows("pg_namespace of database " + db.name(),
        relationPath(db, pgNamespace, map), PG_NAMESPACE,
        t -> Map.entry(t.int32(NAMESPACE_OID), t.name(NAMESPACE_NAME)))) {
      schemas.put(e.getKey(), e.getValue());
    }
    return schemas;
  }

  private static String schemaName(Map<Integer, String> schemas, ClassRow c) {
    return schemas.getOrDefault(c.namespace(), "#" + Integer.toUnsignedString(c.namespace()));
  }

  /**
   * pg_relation_filepath ({@code src/backend/utils/adt/dbsize.c}): the relation's own
   * tablespace, else the database's; relfilenode, else the relation map's entry.
   */
  private String relationPath(Database db, ClassRow c, RelationMap map) {
    int tablespace = c.tablespace() != 0 ? c.tablespace() : db.tablespace();
    int fileNumber = c.fileNode() != 0 ? c.fileNode() : map.fileNumber(c.oid());
    if (fileNumber == 0) {
      throw new DataDirectoryException("Cannot find the file of " + c.name() + " (oid "
          + Integer.toUnsignedString(c.oid()) + ") in database " + db.name()
          + ": relfilenode is 0 and the relation map has no entry; the catalog is damaged");
    }
    String directory = tablespace == GLOBALTABLESPACE_OID ? "global" : databaseDirectory(db.oid(), tablespace);
    return directory + "/" + Integer.toUnsignedString(fileNumber);
  }

  /**
   * GetDatabasePath ({@code src/common/relpath.c}): base/&lt;db&gt; in the default tablespace,
   * pg_tblspc/&lt;spc&gt;/PG_15_&lt;catversion&gt;/&lt;db&gt; in any other.
   */
  private String databaseDirectory(int database, int tablespace) {
    String db = Integer.toUnsignedString(database);
    if (tablespace == DEFAULTTABLESPACE_OID) {
      return "base/" + db;
    }
    return "pg_tblspc/" + Integer.toUnsignedString(tablespace) + "/PG_" + SUPPORTED_VERSION + "_"
        + control.catalogVersion() + "/" + db;
  }

  private RelationMap relationMap(String path) {
    try {
      if (files.length(path) < 0) {
        throw new DataDirectoryException("Cannot read " + files.root() + "/" + path
            + ": it is missing; the data directory is incomplete");
      }
      return RelationMap.parse(path, files.readAll(path));
    } catch (IOException e) {
      throw new DataDirectoryException("Cannot read " + files.root() + "/" + path + ": " + e.getMessage(), e);
    }
  }

  /** The pg_class columns this tool uses. */
  private record ClassRow(int oid, String name, int namespace, int am, int fileNode, int tablespace,
      int toastRelid, boolean shared, char persistence, char kind, int fillfactor) {
    static ClassRow of(Tuple t) {
      char kind = t.character(CLASS_KIND);
      // reloptions is a few short strings, stored inline; a null payload (null, or the
      // improbable compressed or out-of-line value) leaves the default
      byte[] reloptions = t.varlenaPayload(CLASS_RELOPTIONS);
      return new ClassRow(t.int32(CLASS_OID), t.name(CLASS_NAME), t.int32(CLASS_NAMESPACE), t.int32(CLASS_AM),
          t.int32(CLASS_FILENODE), t.int32(CLASS_TABLESPACE), t.int32(CLASS_TOASTRELID),
          t.bool(CLASS_ISSHARED), t.character(CLASS_PERSISTENCE), kind,
          RelOptions.fillfactor(kind, reloptions == null ? null : TextArray.decode(reloptions)));
    }
  }
}
