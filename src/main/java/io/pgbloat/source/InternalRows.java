package io.pgbloat.source;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;

/** Typed report cells (String, Long, Double, null) as Spark's internal row. */
final class InternalRows {
  private InternalRows() {}

  static InternalRow of(Object[] values) {
    Object[] cells = values.clone();
    for (int i = 0; i < cells.length; i++) {
      if (cells[i] instanceof String s) {
        cells[i] = UTF8String.fromString(s);
      }
    }
    return new GenericInternalRow(cells);
  }
}
