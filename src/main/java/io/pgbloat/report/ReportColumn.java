package io.pgbloat.report;

import io.pgbloat.stats.RelationFigures;
import io.pgbloat.stats.RelationReport;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.function.Function;

/**
 * A column of the CSV and JSON reports: its name (pgstattuple's where there is one) and its
 * value as text. The order of {@link #ALL} is the order of the output.
 *
 * @param name column name
 * @param numeric whether JSON writes the value as a number
 * @param value the cell's text
 */
public record ReportColumn(String name, boolean numeric, Function<RelationReport, String> value) {

  public static final List<ReportColumn> ALL = List.of(
      text("database", r -> r.relation().database()),
      text("schema", r -> r.relation().schema()),
      text("relname", r -> r.relation().name()),
      text("relkind", r -> String.valueOf(r.relation().kind())),
      text("relpath", r -> r.relation().relpath()),
      text("toast_of", r -> r.relation().toastOf()),
      number("blocks", f -> Long.toString(f.blocks())),
      number("scanned_blocks", f -> Long.toString(f.scannedBlocks())),
      number("table_len", f -> Long.toString(f.tableLen())),
      number("tuple_count", f -> Long.toString(f.tupleCount())),
      number("tuple_len", f -> Long.toString(f.tupleLen())),
      number("tuple_percent", f -> percent(f.tuplePercent())),
      number("dead_tuple_count", f -> Long.toString(f.deadTupleCount())),
      number("dead_tuple_len", f -> Long.toString(f.deadTupleLen())),
      number("dead_tuple_percent", f -> percent(f.deadTuplePercent())),
      number("free_space", f -> Long.toString(f.freeSpace())),
      number("free_percent", f -> percent(f.freePercent())),
      number("bad_pages", f -> Long.toString(f.badPages())));

  private static ReportColumn text(String name, Function<RelationReport, String> value) {
    return new ReportColumn(name, false, value);
  }

  private static ReportColumn number(String name, Function<RelationFigures, String> value) {
    return new ReportColumn(name, true, r -> value.apply(r.figures()));
  }

  /**
   * Two decimals, as pgstattuple's {@code snprintf("%.2f")}: the double's exact binary value
   * rounded, ties to even, as glibc rounds (String.format would round ties up).
   */
  static String percent(double value) {
    return new BigDecimal(value).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
  }

  public String of(RelationReport row) {
    return value.apply(row);
  }
}
