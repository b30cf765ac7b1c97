package io.pgbloat.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small RFC 4180 CSV reader and writer, enough for PostgreSQL's {@code COPY ... (FORMAT csv)}
 * output and for the tool's own CSV report.
 *
 * <p>Quoted fields may contain commas, doubled quotes and line breaks; records end with LF or
 * CRLF. The final line break is optional. PostgreSQL writes SQL NULL as an unquoted empty field
 * and an empty string as {@code ""}: both come back as {@code ""} here, which is all the tests need.
 */
public final class Csv {

  private Csv() {
  }

  /** Parses every record, header included, as lists of fields. */
  public static List<List<String>> parse(String text) {
    List<List<String>> records = new ArrayList<>();
    List<String> record = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean inQuotes = false;
    // True once the current record has any content: lets "a\n" end without an extra empty record.
    boolean recordStarted = false;
    int line = 1;
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (inQuotes) {
        if (c == '"') {
          if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
            field.append('"');
            i += 2;
            continue;
          }
          inQuotes = false;
          i++;
          if (i < text.length() && !isDelimiter(text, i)) {
            throw new IllegalArgumentException(
                "CSV line " + line + ": unexpected '" + text.charAt(i) + "' after closing quote");
          }
          continue;
        }
        if (c == '\n') {
          line++;
        }
        field.append(c);
        i++;
        continue;
      }
      switch (c) {
        case '"' -> {
          if (field.length() > 0) {
            throw new IllegalArgumentException("CSV line " + line + ": quote inside an unquoted field");
          }
          inQuotes = true;
          recordStarted = true;
          i++;
        }
        case ',' -> {
          record.add(field.toString());
          field.setLength(0);
          recordStarted = true;
          i++;
        }
        case '\r', '\n' -> {
          record.add(field.toString());
          field.setLength(0);
          records.add(record);
          record = new ArrayList<>();
          recordStarted = false;
          line++;
          i += (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') ? 2 : 1;
        }
        default -> {
          field.append(c);
          recordStarted = true;
          i++;
        }
      }
    }
    if (inQuotes) {
      throw new IllegalArgumentException("CSV: unterminated quoted field at end of input (line " + line + ")");
    }
    if (recordStarted) {
      record.add(field.toString());
      records.add(record);
    }
    return records;
  }

  /**
   * Parses text whose first record is a header; each later record becomes a map from column
   * name to value, in column order. Every record must have as many fields as the header
   * (blank lines are skipped when the header has more than one column).
   */
  public static List<Map<String, String>> parseWithHeader(String text) {
    List<List<String>> records = parse(text);
    if (records.isEmpty()) {
      throw new IllegalArgumentException("CSV: no header line in empty input");
    }
    List<String> header = records.get(0);
    List<Map<String, String>> rows = new ArrayList<>(records.size() - 1);
    for (int r = 1; r < records.size(); r++) {
      List<String> record = records.get(r);
      if (header.size() > 1 && record.size() == 1 && record.get(0).isEmpty()) {
        continue; // a blank line cannot be a record of a multi-column file
      }
      if (record.size() != header.size()) {
        throw new IllegalArgumentException("CSV record " + r + " has " + record.size()
            + " fields, header has " + header.size() + ": " + record);
      }
      Map<String, String> row = new LinkedHashMap<>();
      for (int f = 0; f < header.size(); f++) {
        row.put(header.get(f), record.get(f));
      }
      rows.add(row);
    }
    return rows;
  }

  /** The header of {@code text}, i.e. its first record. */
  public static List<String> header(String text) {
    List<List<String>> records = parse(text);
    if (records.isEmpty()) {
      throw new IllegalArgumentException("CSV: no header line in empty input");
    }
    return records.get(0);
  }

  /** One CSV line (with LF), quoting only the fields that need it. */
  public static String line(List<String> fields) {
    StringBuilder out = new StringBuilder();
    for (int f = 0; f < fields.size(); f++) {
      if (f > 0) {
        out.append(',');
      }
      String value = fields.get(f);
      if (value.indexOf(',') >= 0 || value.indexOf('"') >= 0 || value.indexOf('\n') >= 0
          || value.indexOf('\r') >= 0) {
        out.append('"').append(value.replace("\"", "\"\"")).append('"');
      } else {
        out.append(value);
      }
    }
    return out.append('\n').toString();
  }

  private static boolean isDelimiter(String text, int i) {
    char c = text.charAt(i);
    return c == ',' || c == '\n' || c == '\r';
  }
}
