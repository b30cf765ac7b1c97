package io.pgbloat.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The widths EXPLAIN showed for a column of each type on PostgreSQL 13, 15 and 18, in a UTF8 database. */
class DataWidthTest {
  private static final int UTF8 = 6;
  private static final int LATIN1 = 8;
  private static final int TEXT = 25;
  private static final int INT4 = 23;
  private static final int JSONB = 3802;

  private static int width(int type, int typmod, int length) {
    return DataWidth.typeAverageWidth(type, typmod, length, UTF8);
  }

  /** A type modifier of n characters or n digits, as the server stores it: n + VARHDRSZ. */
  private static int chars(int n) {
    return n + DataWidth.VARHDRSZ;
  }

  @Test
  void eachTypesAverageWidth() {
    assertEquals(2, width(21, -1, 2)); // int2
    assertEquals(8, width(20, -1, 8)); // int8
    assertEquals(64, width(19, -1, 64)); // name
    assertEquals(32, width(TEXT, -1, -1));
    assertEquals(32, width(JSONB, -1, -1));
    assertEquals(32, width(DataWidth.VARCHAR, -1, -1)); // a domain over varchar(10) has no modifier of its own
    assertEquals(38, width(DataWidth.VARCHAR, chars(10), -1)); // 44 at most: half of what passes 32
    assertEquals(218, width(DataWidth.VARCHAR, chars(100), -1));
    assertEquals(516, width(DataWidth.VARCHAR, chars(5000), -1)); // past 1000: as at it
    assertEquals(24, width(DataWidth.BPCHAR, chars(5), -1)); // char(n): its maximum
    assertEquals(8, width(DataWidth.BPCHAR, chars(1), -1));
    assertEquals(32, width(DataWidth.NUMERIC, -1, -1));
    assertEquals(16, width(DataWidth.NUMERIC, (10 << 16 | 2) + DataWidth.VARHDRSZ, -1)); // numeric(10,2)
    assertEquals(271, width(DataWidth.NUMERIC, (1000 << 16) + DataWidth.VARHDRSZ, -1));
    assertEquals(11, width(DataWidth.BIT, 20, -1));
    assertEquals(21, width(DataWidth.VARBIT, 100, -1));
    assertEquals(14, DataWidth.typeAverageWidth(DataWidth.VARCHAR, chars(10), -1, LATIN1)); // a byte a character
  }

  @Test
  void aRowsWidthSkipsDroppedColumnsAndTakesAnalysedWidths() {
    List<CatalogReader.AttributeRow> columns = List.of(new CatalogReader.AttributeRow(1, INT4, -1, 4, false, 'i', 'p', false),
        new CatalogReader.AttributeRow(2, TEXT, -1, -1, true, 'i', 'x', false), new CatalogReader.AttributeRow(3, TEXT, -1, -1, false, 'i', 'x', false));
    assertEquals(36, DataWidth.of(columns, Map.of(), UTF8));
    assertEquals(37, DataWidth.of(columns, Map.of(3, 33), UTF8)); // stawidth of an ANALYZE before a TRUNCATE
    assertEquals(36, DataWidth.of(columns, Map.of(3, 0), UTF8)); // none measured
  }
}
