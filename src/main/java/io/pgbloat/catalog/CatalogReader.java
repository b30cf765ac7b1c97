package io.pgbloat.catalog;

import static io.pgbloat.catalog.SystemCatalogs.DATCONNLIMIT_INVALID_DB;
import static io.pgbloat.catalog.SystemCatalogs.PG_AM;
import static io.pgbloat.catalog.SystemCatalogs.PG_AM_OID;
import static io.pgbloat.catalog.SystemCatalogs.PG_ATTRIBUTE_OID;
import static io.pgbloat.catalog.SystemCatalogs.PG_CLASS_OID;
import static io.pgbloat.catalog.SystemCatalogs.PG_DATABASE_OID;
import static io.pgbloat.catalog.SystemCatalogs.PG_INDEX_OID;
import static io.pgbloat.catalog.SystemCatalogs.PG_INHERITS;
import static io.pgbloat.catalog.SystemCatalogs.PG_INHERITS_OID;
import static io.pgbloat.catalog.SystemCatalogs.PG_NAMESPACE;
import static io.pgbloat.catalog.SystemCatalogs.PG_NAMESPACE_OID;
import static io.pgbloat.catalog.SystemCatalogs.PG_STATISTIC;
import static io.pgbloat.catalog.SystemCatalogs.PG_STATISTIC_OID;

import io.pgbloat.error.DataDirectoryException;
import io.pgbloat.page.Attribute;
import io.pgbloat.page.TableColumns;
import io.pgbloat.page.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The rows of pg_database, pg_class, pg_namespace, pg_index, pg_am, pg_inherits, pg_attribute
 * and pg_statistic, decoded with the columns of
 * the cluster's version and names in each database's encoding. Each row is mapped while its
 * page is in the buffer: the heap reader reuses the buffer for the next page, so a Tuple kept
 * beyond it would read another page's bytes.
 */
final class CatalogReader {
  private final CatalogHeap heap;
  private final PostgresVersion version;
  private final RelationPaths paths;

  CatalogReader(CatalogHeap heap, PostgresVersion version, RelationPaths paths) {
    this.heap = heap;
    this.version = version;
    this.paths = paths;
  }

  /** Every database but those whose DROP was interrupted (their files may be gone). */
  List<Database> databases() {
    int fileNumber = paths.globalMap().fileNumber(PG_DATABASE_OID);
    if (fileNumber == 0) {
      throw new DataDirectoryException("Cannot read catalog pg_database: " + RelationPaths.GLOBAL_MAP
          + " has no entry for it");
    }
    CatalogColumns columns = version.pgDatabase();
    List<Database> databases = new ArrayList<>();
    for (Database db : heap.rows("pg_database", "global/" + Integer.toUnsignedString(fileNumber),
        columns.attributes(), t -> toDatabase(t, columns))) {
      if (db != null) {
        databases.add(db);
      }
    }
    return databases;
  }

  private Database toDatabase(Tuple t, CatalogColumns columns) {
    if (t.int32(columns.number("datconnlimit")) == DATCONNLIMIT_INVALID_DB) {
      return null;
    }
    int oid = t.int32(columns.number("oid"));
    int tablespace = t.int32(columns.number("dattablespace"));
    int encoding = t.int32(columns.number("encoding"));
    return new Database(oid, NameDecoder.SHARED.decode(t.name(columns.number("datname"))), tablespace,
        paths.databaseDirectory(oid, tablespace), encoding);
  }

  /** Every pg_class row of {@code db}, found through its relation map {@code map}. */
  List<ClassRow> classes(Database db, RelationMap map) {
    int classFile = map.fileNumber(PG_CLASS_OID);
    if (classFile == 0) {
      throw new DataDirectoryException("Cannot read catalog pg_class of database " + db.name()
          + ": " + db.directory() + "/pg_filenode.map has no entry for it");
    }
    CatalogColumns columns = version.pgClass();
    NameDecoder names = NameDecoder.forEncoding(db.encoding());
    return heap.rows("pg_class of database " + db.name(),
        db.directory() + "/" + Integer.toUnsignedString(classFile), columns.attributes(),
        t -> ClassRow.of(t, columns, names));
  }

  /** Schema names by namespace OID. */
  Map<Integer, String> namespaces(Database db, List<ClassRow> classes, RelationMap map) {
    NameDecoder names = NameDecoder.forEncoding(db.encoding());
    int oid = PG_NAMESPACE.number("oid");
    int nspname = PG_NAMESPACE.number("nspname");
    return entries(db, classes, map, PG_NAMESPACE_OID, "pg_namespace", PG_NAMESPACE.attributes(),
        t -> Map.entry(t.int32(oid), names.decode(t.name(nspname))));
  }

  /**
   * The pg_index columns this tool uses, of one row.
   *
   * @param table indrelid: the table it indexes
   * @param unique indisunique (a btree build of a unique index does not deduplicate)
   */
  record IndexRow(int table, boolean unique) {}

  /** The pg_index rows with indisvalid, by indexrelid: pgstatindex refuses the others. */
  Map<Integer, IndexRow> validIndexes(Database db, List<ClassRow> classes, RelationMap map) {
    CatalogColumns columns = version.pgIndex();
    int indexrelid = columns.number("indexrelid");
    int indrelid = columns.number("indrelid");
    int indisunique = columns.number("indisunique");
    int indisvalid = columns.number("indisvalid");
    return entries(db, classes, map, PG_INDEX_OID, "pg_index", columns.attributes(),
        t -> t.bool(indisvalid) ? Map.entry(t.int32(indexrelid), new IndexRow(t.int32(indrelid), t.bool(indisunique)))
            : null);
  }

  /** Access method names by OID (pg_am): heap, btree, hash, gist, gin, spgist, brin, and any extension's. */
  Map<Integer, String> accessMethods(Database db, List<ClassRow> classes, RelationMap map) {
    int oid = PG_AM.number("oid");
    int amname = PG_AM.number("amname");
    return entries(db, classes, map, PG_AM_OID, "pg_am", PG_AM.attributes(),
        t -> Map.entry(t.int32(oid), NameDecoder.SHARED.decode(t.name(amname))));
  }

  /**
   * The pg_attribute columns this tool uses, of one row.
   *
   * @param number attnum
   * @param type atttypid
   * @param typmod atttypmod
   * @param length attlen, its type's typlen (-1 varlena, -2 cstring)
   * @param dropped attisdropped
   * @param align attalign
   * @param storage attstorage ('p' plain: a varlena never stored short)
   * @param hasMissing atthasmissing
   */
  record AttributeRow(int number, int type, int typmod, int length, boolean dropped, char align, char storage,
      boolean hasMissing) {
    /** TYPSTORAGE_PLAIN ({@code pg_type.h}). */
    static final char PLAIN = 'p';

    /** The column as a rewrite forms it. */
    TableColumns.Column column() {
      return new TableColumns.Column(length, align, storage != PLAIN, dropped, hasMissing);
    }
  }

  /**
   * A table's {@code rows} (its user columns, any order) as a rewrite forms them; as stored when
   * they are not attnum 1..n each once (a damaged catalog).
   */
  static TableColumns tableColumns(List<AttributeRow> rows) {
    TableColumns.Column[] byNumber = new TableColumns.Column[rows.size()];
    for (AttributeRow row : rows) {
      if (row.number() < 1 || row.number() > byNumber.length || byNumber[row.number() - 1] != null) {
        return TableColumns.AS_STORED;
      }
      byNumber[row.number() - 1] = row.column();
    }
    return new TableColumns(List.of(byNumber));
  }

  /** The user columns (attnum &gt; 0) of each table of {@code tables}, by attrelid. */
  Map<Integer, List<AttributeRow>> columns(Database db, List<ClassRow> classes, RelationMap map, Set<Integer> tables) {
    CatalogColumns columns = version.pgAttribute();
    int attrelid = columns.number("attrelid");
    int attnum = columns.number("attnum");
    int atttypid = columns.number("atttypid");
    int atttypmod = columns.number("atttypmod");
    int attlen = columns.number("attlen");
    int attisdropped = columns.number("attisdropped");
    int attalign = columns.number("attalign");
    int attstorage = columns.number("attstorage");
    int atthasmissing = columns.number("atthasmissing");
    Map<Integer, List<AttributeRow>> byTable = new HashMap<>();
    for (Map.Entry<Integer, AttributeRow> e : heap.rows("pg_attribute of database " + db.name(),
        catalogPath(db, classes, map, PG_ATTRIBUTE_OID, "pg_attribute"), columns.attributes(),
        t -> tables.contains(t.int32(attrelid)) && t.int16(attnum) > 0
            ? Map.entry(t.int32(attrelid), new AttributeRow(t.int16(attnum), t.int32(atttypid), t.int32(atttypmod),
                t.int16(attlen), t.bool(attisdropped), t.character(attalign), t.character(attstorage),
                t.bool(atthasmissing))) : null)) {
      if (e != null) {
        byTable.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue());
      }
    }
    return byTable;
  }

  /** The stawidth of each column of {@code tables} that ANALYZE measured (stainherit false): table, then attnum. */
  Map<Integer, Map<Integer, Integer>> statisticWidths(Database db, List<ClassRow> classes, RelationMap map,
      Set<Integer> tables) {
    int starelid = PG_STATISTIC.number("starelid");
    int staattnum = PG_STATISTIC.number("staattnum");
    int stainherit = PG_STATISTIC.number("stainherit");
    int stawidth = PG_STATISTIC.number("stawidth");
    Map<Integer, Map<Integer, Integer>> byTable = new HashMap<>();
    for (int[] row : heap.rows("pg_statistic of database " + db.name(),
        catalogPath(db, classes, map, PG_STATISTIC_OID, "pg_statistic"), PG_STATISTIC.attributes(),
        t -> tables.contains(t.int32(starelid)) && !t.bool(stainherit)
            ? new int[] {t.int32(starelid), t.int16(staattnum), t.int32(stawidth)} : null)) {
      if (row != null) {
        byTable.computeIfAbsent(row[0], k -> new HashMap<>()).put(row[1], row[2]);
      }
    }
    return byTable;
  }

  /** Each inheritance child's parent (pg_inherits): partitions and their partitioned tables among them. */
  Map<Integer, Integer> parents(Database db, List<ClassRow> classes, RelationMap map) {
    int inhrelid = PG_INHERITS.number("inhrelid");
    int inhparent = PG_INHERITS.number("inhparent");
    return entries(db, classes, map, PG_INHERITS_OID, "pg_inherits", PG_INHERITS.attributes(),
        t -> Map.entry(t.int32(inhrelid), t.int32(inhparent)));
  }

  /**
   * The rows of {@code db}'s unmapped catalog {@code name} (OID {@code oid}, its columns
   * {@code attributes}), each the entry {@code row} makes of it, or null for one left out.
   */
  private <K, V> Map<K, V> entries(Database db, List<ClassRow> classes, RelationMap map, int oid, String name,
      List<Attribute> attributes, Function<Tuple, Map.Entry<K, V>> row) {
    Map<K, V> entries = new HashMap<>();
    for (Map.Entry<K, V> e : heap.rows(name + " of database " + db.name(), catalogPath(db, classes, map, oid, name),
        attributes, row)) {
      if (e != null) {
        entries.put(e.getKey(), e.getValue());
      }
    }
    return entries;
  }

  /** The file of an unmapped catalog, from its pg_class row. */
  private String catalogPath(Database db, List<ClassRow> classes, RelationMap map, int oid, String name) {
    ClassRow row = classes.stream().filter(c -> c.oid() == oid).findFirst()
        .orElseThrow(() -> new DataDirectoryException("Cannot read catalog " + name + " of database "
            + db.name() + ": pg_class has no row for it; the catalog is damaged"));
    return paths.relationPath(db, row.name(), row.oid(), row.fileNode(), row.tablespace(), map);
  }
}
