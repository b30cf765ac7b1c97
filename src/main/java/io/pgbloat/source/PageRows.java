package io.pgbloat.source;

import io.pgbloat.catalog.Relation;
import io.pgbloat.page.HeapPageStats;
import io.pgbloat.scan.ScannedPage;
import java.util.Locale;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/** The page view's rows: one per page read, with what it holds and why it is bad, if it is. */
final class PageRows {
  static final StructType SCHEMA = new StructType()
      .add("database", DataTypes.StringType, false)
      .add("schema", DataTypes.StringType, false)
      .add("relname", DataTypes.StringType, false)
      .add("relkind", DataTypes.StringType, false)
      .add("block", DataTypes.LongType, false)
      .add("stratum", DataTypes.StringType, false) // take_all, all_visible or other (the visibility map's)
      .add("tuple_count", DataTypes.IntegerType, false)
      .add("tuple_len", DataTypes.IntegerType, false)
      .add("dead_tuple_count", DataTypes.IntegerType, false)
      .add("dead_tuple_len", DataTypes.IntegerType, false)
      .add("free_space", DataTypes.IntegerType, false)
      .add("lp_unused", DataTypes.IntegerType, false)
      .add("lp_normal", DataTypes.IntegerType, false)
      .add("lp_redirect", DataTypes.IntegerType, false)
      .add("lp_dead", DataTypes.IntegerType, false)
      .add("is_new", DataTypes.BooleanType, false)
      .add("all_visible", DataTypes.BooleanType, false) // PD_ALL_VISIBLE in the page header
      .add("bad_page_reason", DataTypes.StringType, true);

  private PageRows() {}

  static InternalRow of(Relation r, ScannedPage page) {
    HeapPageStats s = page.stats();
    return new GenericInternalRow(new Object[] {
        UTF8String.fromString(r.database()), UTF8String.fromString(r.schema()), UTF8String.fromString(r.name()),
        UTF8String.fromString(String.valueOf(r.kind())), page.block(),
        UTF8String.fromString(page.stratum().name().toLowerCase(Locale.ROOT)),
        s.tupleCount(), s.tupleLen(), s.deadTupleCount(), s.deadTupleLen(), s.freeSpace(),
        s.lpUnused(), s.lpNormal(), s.lpRedirect(), s.lpDead(), s.isNew(), s.allVisible(),
        s.isBad() ? UTF8String.fromString(s.problem().reason()) : null});
  }
}
