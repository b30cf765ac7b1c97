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
import java.util.ArrayList;
import java.util.List;

/**
 * The system catalogs this tool reads, with their well-known OIDs (the same 13-18) and their
 * leading columns in on-disk order in each major version ({@code src/include/catalog/pg_class.h},
 * {@code pg_namespace.h}, {@code pg_database.h}, {@code pg_index.h}, {@code pg_attribute.h},
 * {@code pg_statistic.h} of each release branch).
 * {@link PostgresVersion} says which layout a version has.
 */
final class SystemCatalogs {
  /** RelationRelationId: pg_class; mapped, per database. */
  static final int PG_CLASS_OID = 1259;
  /** NamespaceRelationId: pg_namespace; not mapped, its file number is in pg_class. */
  static final int PG_NAMESPACE_OID = 2615;
  /** IndexRelationId: pg_index; not mapped, its file number is in pg_class. */
  static final int PG_INDEX_OID = 2610;
  /** InheritsRelationId: pg_inherits; not mapped, its file number is in pg_class. */
  static final int PG_INHERITS_OID = 2611;
  /** AttributeRelationId: pg_attribute; not mapped, its file number is in pg_class. */
  static final int PG_ATTRIBUTE_OID = 1249;
  /** StatisticRelationId: pg_statistic; not mapped, its file number is in pg_class. */
  static final int PG_STATISTIC_OID = 2619;
  /** AccessMethodRelationId: pg_am; not mapped, its file number is in pg_class. */
  static final int PG_AM_OID = 2601;
  /** DatabaseRelationId: pg_database; shared and mapped. */
  static final int PG_DATABASE_OID = 1262;
  /** DEFAULTTABLESPACE_OID: pg_default, the base/ directory. */
  static final int DEFAULTTABLESPACE_OID = 1663;
  /** GLOBALTABLESPACE_OID: pg_global, the global/ directory. */
  static final int GLOBALTABLESPACE_OID = 1664;
  /** DATCONNLIMIT_INVALID_DB: datconnlimit of a database whose DROP was interrupted. */
  static final int DATCONNLIMIT_INVALID_DB = -2;

  /**
   * pg_class of 13-17, up to reloptions (relacl and reloptions are the first variable-length
   * columns; nothing after them is read).
   */
  static final CatalogColumns PG_CLASS_13 = new CatalogColumns(pgClass(false));
  /** pg_class of 18: relallfrozen after relallvisible moves every later column by one. */
  static final CatalogColumns PG_CLASS_18 = new CatalogColumns(pgClass(true));

  private static List<Attribute> pgClass(boolean relallfrozen) {
    List<Attribute> columns = new ArrayList<>(List.of(
        oid("oid"), name("relname"), oid("relnamespace"), oid("reltype"), oid("reloftype"),
        oid("relowner"), oid("relam"), oid("relfilenode"), oid("reltablespace"), int4("relpages"),
        float4("reltuples"), int4("relallvisible")));
    if (relallfrozen) {
      columns.add(int4("relallfrozen"));
    }
    columns.addAll(List.of(
        oid("reltoastrelid"), bool("relhasindex"), bool("relisshared"), character("relpersistence"),
        character("relkind"), int2("relnatts"), int2("relchecks"), bool("relhasrules"),
        bool("relhastriggers"), bool("relhassubclass"), bool("relrowsecurity"),
        bool("relforcerowsecurity"), bool("relispopulated"), character("relreplident"),
        bool("relispartition"), oid("relrewrite"), int4("relfrozenxid"), int4("relminmxid"),
        varlena("relacl"), varlena("reloptions")));
    return columns;
  }

  /**
   * pg_database of 13-14, up to dattablespace: datcollate and datctype are fixed-size names,
   * and datlastsysoid comes before datfrozenxid.
   */
  static final CatalogColumns PG_DATABASE_13 = new CatalogColumns(List.of(
      oid("oid"), name("datname"), oid("datdba"), int4("encoding"), name("datcollate"),
      name("datctype"), bool("datistemplate"), bool("datallowconn"), int4("datconnlimit"),
      oid("datlastsysoid"), int4("datfrozenxid"), int4("datminmxid"), oid("dattablespace")));
  /**
   * pg_database of 15-16, up to dattablespace: datlocprovider added, datlastsysoid dropped,
   * the collations moved to text columns after it (16's daticurules is among them).
   */
  static final CatalogColumns PG_DATABASE_15 = new CatalogColumns(List.of(
      oid("oid"), name("datname"), oid("datdba"), int4("encoding"), character("datlocprovider"),
      bool("datistemplate"), bool("datallowconn"), int4("datconnlimit"), int4("datfrozenxid"),
      int4("datminmxid"), oid("dattablespace")));
  /** pg_database of 17-18, up to dattablespace: dathasloginevt after datallowconn. */
  static final CatalogColumns PG_DATABASE_17 = new CatalogColumns(List.of(
      oid("oid"), name("datname"), oid("datdba"), int4("encoding"), character("datlocprovider"),
      bool("datistemplate"), bool("datallowconn"), bool("dathasloginevt"), int4("datconnlimit"),
      int4("datfrozenxid"), int4("datminmxid"), oid("dattablespace")));

  /** pg_namespace, up to nspname (the same 13-18). */
  static final CatalogColumns PG_NAMESPACE = new CatalogColumns(List.of(oid("oid"), name("nspname")));

  /** pg_am, up to amname (the same 13-18). */
  static final CatalogColumns PG_AM = new CatalogColumns(List.of(oid("oid"), name("amname")));

  /** pg_inherits, up to inhparent (the same 13-18; 14 appends inhdetachpending). */
  static final CatalogColumns PG_INHERITS = new CatalogColumns(List.of(oid("inhrelid"), oid("inhparent")));

  /** pg_index of 13-14, up to indisvalid. */
  static final CatalogColumns PG_INDEX_13 = new CatalogColumns(List.of(
      oid("indexrelid"), oid("indrelid"), int2("indnatts"), int2("indnkeyatts"), bool("indisunique"),
      bool("indisprimary"), bool("indisexclusion"), bool("indimmediate"), bool("indisclustered"),
      bool("indisvalid")));
  /** pg_index of 15-18, up to indisvalid: indnullsnotdistinct after indisunique. */
  static final CatalogColumns PG_INDEX_15 = new CatalogColumns(List.of(
      oid("indexrelid"), oid("indrelid"), int2("indnatts"), int2("indnkeyatts"), bool("indisunique"),
      bool("indnullsnotdistinct"), bool("indisprimary"), bool("indisexclusion"), bool("indimmediate"),
      bool("indisclustered"), bool("indisvalid")));

  /**
   * pg_attribute of 13, up to attisdropped (every column before it is fixed-size, as in every
   * version).
   */
  static final CatalogColumns PG_ATTRIBUTE_13 = new CatalogColumns(List.of(
      oid("attrelid"), name("attname"), oid("atttypid"), int4("attstattarget"), int2("attlen"), int2("attnum"),
      int4("attndims"), int4("attcacheoff"), int4("atttypmod"), bool("attbyval"), character("attstorage"),
      character("attalign"), bool("attnotnull"), bool("atthasdef"), bool("atthasmissing"),
      character("attidentity"), character("attgenerated"), bool("attisdropped")));
  /** pg_attribute of 14-15, up to attisdropped: attalign before attstorage, attcompression after it. */
  static final CatalogColumns PG_ATTRIBUTE_14 = pgAttribute(List.of(
      oid("attrelid"), name("attname"), oid("atttypid"), int4("attstattarget"), int2("attlen"), int2("attnum"),
      int4("attndims"), int4("attcacheoff"), int4("atttypmod")));
  /**
   * pg_attribute of 16-17, up to attisdropped: attstattarget moved past attisdropped (an int2 on
   * 16, nullable on 17), attndims an int2 after atttypmod.
   */
  static final CatalogColumns PG_ATTRIBUTE_16 = pgAttribute(List.of(
      oid("attrelid"), name("attname"), oid("atttypid"), int2("attlen"), int2("attnum"), int4("attcacheoff"),
      int4("atttypmod"), int2("attndims")));
  /** pg_attribute of 18, up to attisdropped: attcacheoff dropped. */
  static final CatalogColumns PG_ATTRIBUTE_18 = pgAttribute(List.of(
      oid("attrelid"), name("attname"), oid("atttypid"), int2("attlen"), int2("attnum"), int4("atttypmod"),
      int2("attndims")));

  /** pg_attribute of 14 on: {@code head}, then attbyval to attisdropped, the same 14-18. */
  private static CatalogColumns pgAttribute(List<Attribute> head) {
    List<Attribute> columns = new ArrayList<>(head);
    columns.addAll(List.of(bool("attbyval"), character("attalign"), character("attstorage"),
        character("attcompression"), bool("attnotnull"), bool("atthasdef"), bool("atthasmissing"),
        character("attidentity"), character("attgenerated"), bool("attisdropped")));
    return new CatalogColumns(columns);
  }

  /** pg_statistic, up to stawidth (the same 13-18). */
  static final CatalogColumns PG_STATISTIC = new CatalogColumns(List.of(
      oid("starelid"), int2("staattnum"), bool("stainherit"), float4("stanullfrac"), int4("stawidth")));

  private SystemCatalogs() {}
}
