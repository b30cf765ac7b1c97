package io.pgbloat.catalog;

import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.TextArray;
import io.pgbloat.page.Tuple;

/**
 * The pg_class columns this tool uses, of one row.
 *
 * @param kind relkind, or null for a letter pg_class.h does not define (no listing takes the row)
 * @param fillfactorOption the fillfactor its reloptions set, or {@link RelOptions#UNSET}
 * @param deduplicateItems a btree index's deduplicate_items reloption (true unless set off)
 * @param pages relpages, as the last VACUUM, ANALYZE or index build left it
 * @param tuples reltuples, likewise (-1 from 14 on before the first, 0 on 13)
 * @param hasSubclass relhassubclass: it has (or had) inheritance children or partitions
 */
record ClassRow(int oid, String name, int namespace, int am, int fileNode, int tablespace,
    int toastRelid, boolean shared, char persistence, RelKind kind, int fillfactorOption, boolean deduplicateItems,
    int pages, float tuples, boolean hasSubclass) {

  /** The row {@code t}, laid out as {@code columns} says, its name decoded by {@code names}. */
  static ClassRow of(Tuple t, CatalogColumns columns, NameDecoder names) {
    RelKind kind = RelKind.of(t.character(columns.number("relkind")));
    // reloptions is a few short strings, stored inline; a null payload (null, or the
    // improbable compressed or out-of-line value) leaves the default
    byte[] payload = t.varlenaPayload(columns.number("reloptions"));
    java.util.List<String> reloptions = payload == null ? null : TextArray.decode(payload);
    return new ClassRow(t.int32(columns.number("oid")), names.decode(t.name(columns.number("relname"))),
        t.int32(columns.number("relnamespace")), t.int32(columns.number("relam")),
        t.int32(columns.number("relfilenode")), t.int32(columns.number("reltablespace")),
        t.int32(columns.number("reltoastrelid")), t.bool(columns.number("relisshared")),
        t.character(columns.number("relpersistence")), kind,
        RelOptions.fillfactorOption(reloptions), RelOptions.deduplicateItemsOption(reloptions),
        t.int32(columns.number("relpages")), t.float4(columns.number("reltuples")),
        t.bool(columns.number("relhassubclass")));
  }

  /** The fillfactor a rewrite of this table writes its pages to (see {@link RelOptions}). */
  int tableFillfactor() {
    return RelOptions.tableFillfactor(kind, fillfactorOption);
  }

  /** The fillfactor a build of this index fills its pages to: the option, else its method's default. */
  int indexFillfactor(String amname) {
    if (fillfactorOption != RelOptions.UNSET) {
      return fillfactorOption;
    }
    IndexAccessMethod method = IndexAccessMethod.named(amname);
    return method == null ? RelOptions.HEAP_DEFAULT_FILLFACTOR : method.defaultFillfactor();
  }
}
