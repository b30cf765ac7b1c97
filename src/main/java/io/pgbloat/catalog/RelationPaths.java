package io.pgbloat.catalog;

import static io.pgbloat.catalog.SystemCatalogs.DEFAULTTABLESPACE_OID;
import static io.pgbloat.catalog.SystemCatalogs.GLOBALTABLESPACE_OID;

import io.pgbloat.error.DataDirectoryException;
import io.pgbloat.io.store.FileStore;
import java.io.IOException;

/**
 * Where a relation's files are, relative to the data directory: the rules of
 * {@code src/common/relpath.c} and {@code pg_relation_filepath}, with the relation maps
 * ({@code pg_filenode.map}) of the cluster's version for the mapped catalogs. Paths are built
 * from the catalog's numbers only, so a catalog cannot point the tool at a name of its choosing.
 */
final class RelationPaths {
  /** The shared catalogs' relation map. */
  static final String GLOBAL_MAP = "global/pg_filenode.map";

  private final FileStore files;
  private final PostgresVersion version;
  private final long catalogVersion;
  /** {@link #GLOBAL_MAP}, read on first use: every database's listing resolves its shared catalogs by it. */
  private RelationMap globalMap;

  RelationPaths(FileStore files, PostgresVersion version, long catalogVersion) {
    this.files = files;
    this.version = version;
    this.catalogVersion = catalogVersion;
  }

  /**
   * GetDatabasePath: base/&lt;db&gt; in the default tablespace,
   * pg_tblspc/&lt;spc&gt;/PG_&lt;major&gt;_&lt;catversion&gt;/&lt;db&gt; in any other.
   */
  String databaseDirectory(int database, int tablespace) {
    String db = Integer.toUnsignedString(database);
    if (tablespace == DEFAULTTABLESPACE_OID) {
      return "base/" + db;
    }
    return "pg_tblspc/" + Integer.toUnsignedString(tablespace) + "/"
        + version.tablespaceDirectory(catalogVersion) + "/" + db;
  }

  /**
   * pg_relation_filepath ({@code src/backend/utils/adt/dbsize.c}): the relation's own
   * tablespace, else the database's; its relfilenode, else the relation map's entry.
   *
   * @param name the relation, for messages
   * @param map the relation map that holds it when relfilenode is 0: the database's, or
   *     {@link #GLOBAL_MAP}'s for a shared catalog
   */
  String relationPath(Database db, String name, int oid, int fileNode, int relTablespace, RelationMap map) {
    int tablespace = relTablespace != 0 ? relTablespace : db.tablespace();
    int fileNumber = fileNode != 0 ? fileNode : map.fileNumber(oid);
    if (fileNumber == 0) {
      throw new DataDirectoryException("Cannot find the file of " + name + " (oid "
          + Integer.toUnsignedString(oid) + ") in database " + db.name()
          + ": relfilenode is 0 and the relation map has no entry; the catalog is damaged");
    }
    String directory = tablespace == GLOBALTABLESPACE_OID ? "global" : databaseDirectory(db.oid(), tablespace);
    return directory + "/" + Integer.toUnsignedString(fileNumber);
  }

  /** The shared catalogs' relation map, {@link #GLOBAL_MAP}: read once, as the copy does not change. */
  RelationMap globalMap() {
    if (globalMap == null) {
      globalMap = relationMap(GLOBAL_MAP);
    }
    return globalMap;
  }

  /** The relation map at {@code path}: {@link #GLOBAL_MAP}, or a database directory's. */
  private RelationMap relationMap(String path) {
    try {
      if (files.length(path) < 0) {
        throw new DataDirectoryException("Cannot read " + files.root() + "/" + path
            + ": it is missing; the data directory is incomplete");
      }
      return RelationMap.parse(path, files.readAll(path), version.relationMap());
    } catch (IOException e) {
      throw new DataDirectoryException("Cannot read " + files.root() + "/" + path + ": " + e.getMessage(), e);
    }
  }

  /** The relation map of database {@code db}. */
  RelationMap relationMap(Database db) {
    return relationMap(db.directory() + "/pg_filenode.map");
  }
}
