package io.pgbloat.catalog;

import io.pgbloat.io.read.RelationFileNames;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.TableColumns;
import java.io.Serializable;

/**
 * A relation with storage, as the offline catalog describes it: a relation with heap storage
 * ({@link DataDirectory#relations}) or an index ({@link DataDirectory#indexes}).
 *
 * @param database its database, or "" for a shared catalog (relpath global/...)
 * @param schema its namespace
 * @param name relname
 * @param kind relkind: a table, TOAST table or materialized view, an index, or a partitioned
 *     table or index (the last two without storage)
 * @param relpath the main fork's path as pg_relation_filepath() gives it
 * @param toastOf for a TOAST table, its owner as schema.table; otherwise (indexes too) ""
 * @param oid the relation's OID (unsigned)
 * @param fillfactor the fillfactor its pages are written to by a rewrite: the reloption, else
 *     HEAP_DEFAULT_FILLFACTOR; always 100 for a TOAST table (see {@link RelOptions}); for an
 *     index, the reloption, else its access method's default (btree 90)
 * @param persistence relpersistence: 'p' permanent, 'u' unlogged (temporary ones are never listed)
 * @param am the name of its access method (pg_am.amname): "heap" for tables, "btree" and the
 *     others for indexes; empty for a partitioned table
 * @param owner the OID of the table it belongs to, whose total ({@code pg_total_relation_size})
 *     counts it: an index's table (pg_index.indrelid), a TOAST table's owner; 0 for a table
 * @param deduplicateItems for a btree index, whether a build may deduplicate its entries: not
 *     unique, deduplicate_items not off ({@code nbtsort.c}; the metapage's allequalimage
 *     decides the rest); false for every other relation
 * @param tableStatistics for a hash index, what the planner knows of its table's size, from
 *     which a build chooses its buckets ({@code hash.c}, hashbuild, calls estimate_rel_size);
 *     null for every other relation
 * @param columns for a table or materialized view, its columns as a rewrite forms its rows
 *     again ({@link TableColumns}); {@link TableColumns#AS_STORED} for every other relation
 */
public record Relation(
    String database, String schema, String name, RelKind kind, String relpath, String toastOf, long oid,
    int fillfactor, char persistence, String am, long owner, boolean deduplicateItems,
    TableStatistics tableStatistics, TableColumns columns) implements Serializable {

  /** The heap table access method's name: the only table access method whose pages this tool reads. */
  public static final String HEAP = "heap";

  /** RELPERSISTENCE_PERMANENT ({@code src/include/catalog/pg_class.h}). */
  public static final char PERMANENT = 'p';
  /** RELPERSISTENCE_UNLOGGED: not WAL-logged, reset to its init fork by recovery. */
  public static final char UNLOGGED = 'u';
  /** RELPERSISTENCE_TEMP: a session's temporary relation, which vanishes with it; never listed. */
  static final char TEMPORARY = 't';

  /** A permanent heap relation (or btree index) whose reloptions set no fillfactor. */
  public Relation(String database, String schema, String name, RelKind kind, String relpath, String toastOf,
      long oid) {
    this(database, schema, name, kind, relpath, toastOf, oid,
        kind == RelKind.INDEX ? IndexAccessMethod.BTREE.defaultFillfactor() : RelOptions.HEAP_DEFAULT_FILLFACTOR,
        PERMANENT, kind == RelKind.INDEX ? IndexAccessMethod.BTREE.amname() : HEAP, 0, kind == RelKind.INDEX, null,
        TableColumns.AS_STORED);
  }

  /** Whether it is unlogged (relpersistence 'u'). */
  public boolean isUnlogged() {
    return persistence == UNLOGGED;
  }

  /** Whether this is a shared catalog, stored once for the whole cluster. */
  public boolean isShared() {
    return database.isEmpty();
  }

  /**
   * Whether initdb made it: its OID lies below FirstNormalObjectId ({@code transam.h}), as the
   * system catalogs' and their indexes' do (indexcmds.c refuses to reindex those concurrently).
   */
  public boolean isMadeByInitdb() {
    return oid < RelationFileNames.FIRST_NORMAL_OBJECT_ID;
  }

  /** Whether this is a TOAST table. */
  public boolean isToast() {
    return kind == RelKind.TOAST_TABLE;
  }

  /** Which relation of the cluster this is. */
  public RelationId id() {
    return new RelationId(database, oid);
  }

  /** Which relation {@link #owner} is: in the same database (a shared catalog's in none). */
  public RelationId ownerId() {
    return new RelationId(database, owner);
  }

  /** schema.name, for messages. */
  public String qualifiedName() {
    return (isShared() ? "" : database + ":") + schema + "." + name;
  }
}
