package io.pgbloat.advice;

/**
 * Bytes as a person reads them, as PostgreSQL's pg_size_pretty writes them
 * ({@code src/backend/utils/adt/dbsize.c}): units of 1024, the next unit from 10 of them on,
 * rounded to a whole number. For the reports and for the reasons the advice gives.
 */
public final class ByteSize {
  private static final String[] UNITS = {"bytes", "kB", "MB", "GB", "TB", "PB"};
  /** pg_size_pretty's limit: 10 × 1024 of a unit go up to the next. */
  private static final long UNIT_LIMIT = 10 * 1024;

  private ByteSize() {}

  /** {@code bytes} (negative too: a rewrite may grow a relation) in the largest sensible unit. */
  public static String pretty(double bytes) {
    double value = bytes;
    int unit = 0;
    while (Math.abs(value) >= UNIT_LIMIT && unit < UNITS.length - 1) {
      value /= 1024;
      unit++;
    }
    return Math.round(value) + " " + UNITS[unit];
  }
}
