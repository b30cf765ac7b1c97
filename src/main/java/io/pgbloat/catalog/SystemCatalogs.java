package io.pgbloat.catalog;

import static io.pgbloat.page.Attribute.bool;
import static io.pgbloat.page.Attribute.character;
import static io.pgbloat.page.Attribute.float4;
import static io.pgbloat.page.Attribute.int2;
import static io.pgbloat.page.Attribute.int4;
import static io.pgbloat.page.Attribute.name;
import static io.pgbloat.page.Attribute.oid;
import static io.pgbloat.page.Attribute.varlena;

import io.pgbloat.page.Attribute;
import java.util.List;

/**
 * The PostgreSQL 15 system catalogs this tool reads, with their well-known OIDs and their
 * columns in on-disk order ({@code src/include/catalog/pg_class.h}, {@code pg_namespace.h},
 * {@code pg_database.h}, {@code pg_index.h}). Only the leading columns up to the last one used
 * are listed: a tuple is deformed no further than that.
 */
final class SystemCatalogs {
  /** RelationRelationId: pg_class; mapped, per database. */
  static final int PG_CLASS_OID = 1259;
  /** NamespaceRelationId: pg_namespace; not mapped, its file number is in pg_class. */
  static final int PG_NAMESPACE_OID = 2615;
  /** IndexRelationId: pg_index; not mapped, its file number is in pg_class. */
  static final int PG_INDEX_OID = 2610;
  /** BTREE_AM_OID: the btree access method ({@code src/include/catalog/pg_am.dat}). */
  static final int BTREE_AM_OID = 403;
  /** DatabaseRelationId: pg_database; shared and mapped. */
  static final int PG_DATABASE_OID = 1262;
  /** DEFAULTTABLESPACE_OID: pg_default, the base/ directory. */
  static final int DEFAULTTABLESPACE_OID = 1663;
  /** GLOBALTABLESPACE_OID: pg_global, the global/ directory. */
  static final int GLOBALTABLESPACE_OID = 1664;
  /** DATCONNLIMIT_INVALID_DB: datconnlimit of a database whose DROP was interrupted. */
  static final int DATCONNLIMIT_INVALID_DB = -2;

  /** pg_database, up to dattablespace (the varlena columns after it are not needed). */
  static final List<Attribute> PG_DATABASE = List.of(
      oid("oid"), name("datname"), oid("datdba"), int4("encoding"), character("datlocprovider"),
      bool("datistemplate"), bool("datallowconn"), int4("datconnlimit"), int4("datfrozenxid"),
      int4("datminmxid"), oid("dattablespace"));
  static final int DATABASE_OID = 0;
  static final int DATABASE_NAME = 1;
  static final int DATABASE_CONNLIMIT = 7;
  static final int DATABASE_TABLESPACE = 10;

  /** pg_class, up to reloptions. */
  static final List<Attribute> PG_CLASS = List.of(
      oid("oid"), name("relname"), oid("relnamespace"), oid("reltype"), oid("reloftype"),
      oid("relowner"), oid("relam"), oid("relfilenode"), oid("reltablespace"), int4("relpages"),
      float4("reltuples"), int4("relallvisible"), oid("reltoastrelid"), bool("relhasindex"),
      bool("relisshared"), character("relpersistence"), character("relkind"), int2("relnatts"),
      int2("relchecks"), bool("relhasrules"), bool("relhastriggers"), bool("relhassubclass"),
      bool("relrowsecurity"), bool("relforcerowsecurity"), bool("relispopulated"),
      character("relreplident"), bool("relispartition"), oid("relrewrite"), int4("relfrozenxid"),
      int4("relminmxid"), varlena("relacl"), varlena("reloptions"));
  static final int CLASS_OID = 0;
  static final int CLASS_NAME = 1;
  static final int CLASS_NAMESPACE = 2;
  static final int CLASS_AM = 6;
  static final int CLASS_FILENODE = 7;
  static final int CLASS_TABLESPACE = 8;
  static final int CLASS_TOASTRELID = 12;
  static final int CLASS_ISSHARED = 14;
  static final int CLASS_PERSISTENCE = 15;
  static final int CLASS_KIND = 16;
  static final int CLASS_RELOPTIONS = 31;

  /** pg_namespace, up to nspname. */
  static final List<Attribute> PG_NAMESPACE = List.of(oid("oid"), name("nspname"));
  static final int NAMESPACE_OID = 0;
  static final int NAMESPACE_NAME = 1;

  /** pg_index, up to indisvalid ({@code src/include/catalog/pg_index.h}). */
  static final List<Attribute> PG_INDEX = List.of(
      oid("indexrelid"), oid("indrelid"), int2("indnatts"), int2("indnkeyatts"), bool("indisunique"),
      bool("indnullsnotdistinct"), bool("indisprimary"), bool("indisexclusion"), bool("indimmediate"),
      bool("indisclustered"), bool("indisvalid"));
  static final int INDEX_INDEXRELID = 0;
  static final int INDEX_ISVALID = 10;

  private SystemCatalogs() {}
}
