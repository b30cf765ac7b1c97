package io.pgbloat.report;

import io.pgbloat.figures.IndexFigures;
import io.pgbloat.stats.Estimate;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * How an {@link Estimate} is written in a report's cells, for tables and indexes alike: counts
 * and bytes as whole numbers, percentages with two decimals as PostgreSQL's {@code "%.2f"}
 * prints them, standard errors with a few more, interval ends rounded outwards.
 */
final class EstimateText {
  private EstimateText() {}

  /**
   * The value: a percentage as {@code printf("%.2f")} ("NaN" for NaN, as pgstatindex); a
   * count rounded, or empty (null) when it is not a number (nothing good was read).
   */
  static String value(Estimate e, boolean percent) {
    if (percent) {
      return percent(e.value());
    }
    return Double.isFinite(e.value()) ? Long.toString(Math.round(e.value())) : null;
  }

  /** Two decimals, as pgstattuple's {@code snprintf("%.2f")} on glibc (see {@link IndexFigures#printed}). */
  static String percent(double value) {
    return IndexFigures.printed(value);
  }

  /** The standard error; empty (null) when there is none (nothing good was read). */
  static String standardError(Estimate e, boolean percent) {
    if (!Double.isFinite(e.standardError())) {
      return null;
    }
    return String.format(Locale.ROOT, percent ? "%.4f" : "%.2f", e.standardError());
  }

  /**
   * An interval end, rounded outwards so the printed interval holds the computed one; empty
   * (null) for an unbounded end.
   */
  static String bound(Estimate e, boolean percent, boolean high) {
    double v = high ? e.high() : e.low();
    if (!Double.isFinite(v)) {
      return null;
    }
    if (e.isExact()) {
      return value(e, percent);
    }
    if (percent) {
      return new BigDecimal(v).setScale(2, high ? RoundingMode.CEILING : RoundingMode.FLOOR).toPlainString();
    }
    return Long.toString((long) (high ? Math.ceil(v) : Math.floor(v)));
  }
}
