package io.pgbloat.catalog;

import java.util.List;
import java.util.Map;

/**
 * The planner's guess at the width of a table's row data, as it guesses it for a table that
 * gives no density ({@code src/backend/optimizer/util/plancat.c}, get_rel_data_width, the same
 * 13-18): over the columns not dropped, each column's pg_statistic.stawidth when ANALYZE left
 * one (get_attavgwidth reads the row of stainherit false), else its type's average width
 * ({@code src/backend/utils/cache/lsyscache.c}, get_typavgwidth): a fixed length as it is; a
 * length the type modifier bounds ({@code src/backend/utils/adt/format_type.c},
 * type_maximum_size) whole up to 32 bytes and for char(n), half of what passes 32 below 1000,
 * and 516 from there; 32 for any other.
 */
final class DataWidth {
  /** BPCHAROID, VARCHAROID, NUMERICOID, BITOID, VARBITOID ({@code pg_type.dat}). */
  static final int BPCHAR = 1042;
  static final int VARCHAR = 1043;
  static final int NUMERIC = 1700;
  static final int BIT = 1560;
  static final int VARBIT = 1562;
  /** VARHDRSZ: a varlena's 4-byte header, which a char, varchar or numeric type modifier includes. */
  static final int VARHDRSZ = 4;
  /** NUMERIC_HDRSZ: VARHDRSZ + sizeof(uint16) + sizeof(int16) ({@code numeric.c}). */
  static final int NUMERIC_HDRSZ = VARHDRSZ + 2 + 2;
  /** DEC_DIGITS: the decimal digits of one NumericDigit, of sizeof(NumericDigit) bytes. */
  static final int DEC_DIGITS = 4;
  static final int NUMERIC_DIGIT_BYTES = 2;
  /** get_typavgwidth's width of a type it knows nothing of, and the widest it takes whole. */
  static final int UNKNOWN_WIDTH = 32;
  /** Past this maximum, get_typavgwidth takes a bound as no help and guesses as at it. */
  static final int UNHELPFUL_MAXIMUM = 1000;
  /** MaxAllocSize: clamp_width_est's ceiling ({@code costsize.c}). */
  static final long MAX_ALLOC_SIZE = 0x3fffffffL;
  /**
   * pg_encoding_max_length of the server encodings ({@code src/common/wchar.c}, pg_wchar_table's
   * maxmblen) by pg_enc number; every other server encoding is single-byte.
   */
  private static final Map<Integer, Integer> MULTIBYTE_MAX_LENGTHS = Map.of(
      1, 3,  // PG_EUC_JP
      2, 2,  // PG_EUC_CN
      3, 3,  // PG_EUC_KR
      4, 4,  // PG_EUC_TW
      5, 3,  // PG_EUC_JIS_2004
      6, 4,  // PG_UTF8
      7, 4); // PG_MULE_INTERNAL

  private DataWidth() {}

  /**
   * The width of {@code columns}, each dropped one left out, each of a stawidth in
   * {@code statisticWidths} (by attnum) taken at it, in a database of encoding {@code encoding}.
   */
  static int of(List<CatalogReader.AttributeRow> columns, Map<Integer, Integer> statisticWidths, int encoding) {
    long width = 0;
    for (CatalogReader.AttributeRow column : columns) {
      if (column.dropped()) {
        continue;
      }
      int analysed = statisticWidths.getOrDefault(column.number(), 0);
      width += analysed > 0 ? analysed : typeAverageWidth(column.type(), column.typmod(), column.length(), encoding);
    }
    return (int) Math.min(width, MAX_ALLOC_SIZE);
  }

  /** get_typavgwidth of type {@code type}, modifier {@code typmod}, typlen {@code length}. */
  static int typeAverageWidth(int type, int typmod, int length, int encoding) {
    if (length > 0) {
      return length;
    }
    long maximum = typeMaximumSize(type, typmod, encoding);
    if (maximum <= 0) {
      return UNKNOWN_WIDTH;
    }
    if (type == BPCHAR || maximum <= UNKNOWN_WIDTH) {
      return (int) maximum;
    }
    if (maximum < UNHELPFUL_MAXIMUM) {
      return (int) (UNKNOWN_WIDTH + (maximum - UNKNOWN_WIDTH) / 2);
    }
    return UNKNOWN_WIDTH + (UNHELPFUL_MAXIMUM - UNKNOWN_WIDTH) / 2;
  }

  /** type_maximum_size: the most bytes a value of {@code type} and {@code typmod} takes, or -1 when unbounded. */
  static long typeMaximumSize(int type, int typmod, int encoding) {
    if (typmod < 0) {
      return -1;
    }
    return switch (type) {
      // the modifier counts characters and the header
      case BPCHAR, VARCHAR -> (long) (typmod - VARHDRSZ) * maxCharLength(encoding) + VARHDRSZ;
      case NUMERIC -> numericMaximumSize(typmod);
      // the modifier counts bits; the header and the bit count before them
      case BIT, VARBIT -> (typmod + (Byte.SIZE - 1)) / Byte.SIZE + 2 * Integer.BYTES;
      default -> -1;
    };
  }

  /** numeric_maximum_size ({@code numeric.c}): the precision is the modifier's upper half, past its header. */
  static long numericMaximumSize(int typmod) {
    if (typmod < VARHDRSZ) {
      return -1;
    }
    int precision = ((typmod - VARHDRSZ) >> 16) & 0xffff;
    int digits = (precision + 2 * (DEC_DIGITS - 1)) / DEC_DIGITS;
    return NUMERIC_HDRSZ + (long) digits * NUMERIC_DIGIT_BYTES;
  }

  /** pg_encoding_max_length of server encoding {@code encoding}. */
  static int maxCharLength(int encoding) {
    return MULTIBYTE_MAX_LENGTHS.getOrDefault(encoding, 1);
  }
}
