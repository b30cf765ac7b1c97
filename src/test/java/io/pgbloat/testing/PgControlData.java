package io.pgbloat.testing;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the output of {@code pg_controldata}: one {@code name: value} line a field. */
public final class PgControlData {
  private PgControlData() {}

  /** The value of field {@code name} in {@code output}, as pg_controldata printed it. */
  public static String field(String output, String name) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + ":\\s*(.+?)\\s*$").matcher(output);
    if (!m.find()) {
      throw new IllegalStateException("no '" + name + "' in pg_controldata output:\n" + output);
    }
    return m.group(1);
  }
}
