package io.pgbloat.it;

import io.pgbloat.testing.Csv;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The tool's CSV report format ({@code analyze --format csv}) and the comparison of a report
 * with the truth, collecting every difference instead of stopping at the first.
 */
public final class Report {

  /** The contract: these columns first, in this order (estimates' bounds follow them). */
  static final List<String> COLUMNS = List.of("database", "schema", "relname", "relkind", "relpath", "toast_of",
      "blocks", "scanned_blocks", "table_len", "tuple_count", "tuple_len", "tuple_percent",
      "dead_tuple_count", "dead_tuple_len", "dead_tuple_percent", "free_space", "free_percent", "bad_pages");

  private static final List<String> TEXT_COLUMNS = List.of("relkind", "relpath", "toast_of");
  private static final List<String> PERCENT_COLUMNS = List.of("tuple_percent", "dead_tuple_percent", "free_percent");
  private static final Pattern INTEGER = Pattern.compile("\\d+");
  // pgstattuple prints its percentages with two decimals ("%.2f"); so must the tool
  private static final Pattern PERCENT = Pattern.compile("\\d+\\.\\d{2}");

  private Report() {
  }

  /** "postgres:public.deletes"; shared catalogs, whose database column is empty, as "(shared):...". */
  public static String key(Map<String, String> row) {
    String db = row.get("database");
    return (db.isEmpty() ? "(shared)" : db) + ":" + row.get("schema") + "." + row.get("relname");
  }

  /** Two decimals, rounded half up, as pgstattuple's "%.2f" does. */
  static String percent(String value) {
    return new BigDecimal(value).setScale(2, RoundingMode.HALF_UP).toPlainString();
  }

  static String toCsv(List<Map<String, String>> rows) {
    StringBuilder out = new StringBuilder(Csv.line(COLUMNS));
    for (Map<String, String> row : rows) {
      out.append(Csv.line(COLUMNS.stream().map(row::get).toList()));
    }
    return out.toString();
  }

  /**
   * Every difference between the expected rows and the tool's CSV output, one readable line
   * each ("relation: column expected X, got Y"); empty when they agree.
   */
  public static List<String> differences(List<Map<String, String>> expected, String toolCsv) {
    List<String> problems = new ArrayList<>();
    List<Map<String, String>> actualRows;
    try {
      List<String> header = Csv.header(toolCsv);
      if (header.size() < COLUMNS.size() || !header.subList(0, COLUMNS.size()).equals(COLUMNS)) {
        problems.add("header: expected " + COLUMNS + ", got " + header);
        return problems;
      }
      actualRows = Csv.parseWithHeader(toolCsv);
    } catch (IllegalArgumentException e) {
      problems.add("output is not valid CSV with a header: " + e.getMessage());
      return problems;
    }

    Map<String, Map<String, String>> actual = new LinkedHashMap<>();
    for (Map<String, String> row : actualRows) {
      if (actual.put(key(row), row) != null) {
        problems.add(key(row) + ": reported more than once");
      }
    }
    for (Map<String, String> want : expected) {
      String key = key(want);
      Map<String, String> got = actual.remove(key);
      if (got == null) {
        problems.add(key + ": missing from the tool's output (truth: " + want.get("relpath") + ", "
            + want.get("table_len") + " bytes)");
        continue;
      }
      for (String column : COLUMNS.subList(3, COLUMNS.size())) {
        String difference = compare(column, want.get(column), got.get(column));
        if (difference != null) {
          problems.add(key + ": " + column + " " + difference);
        }
      }
    }
    for (String extra : actual.keySet()) {
      problems.add(extra + ": reported by the tool but not in the truth");
    }
    return problems;
  }

  private static String compare(String column, String want, String got) {
    if (TEXT_COLUMNS.contains(column)) {
      return want.equals(got) ? null : "expected '" + want + "', got '" + got + "'";
    }
    boolean percent = PERCENT_COLUMNS.contains(column);
    if (!(percent ? PERCENT : INTEGER).matcher(got).matches()) {
      return "expected " + want + ", got '" + got + "' (not " + (percent ? "a %.2f number" : "an integer") + ")";
    }
    return new BigDecimal(want).compareTo(new BigDecimal(got)) == 0 ? null : "expected " + want + ", got " + got;
  }
}
