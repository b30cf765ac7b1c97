package io.pgbloat.source;

import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.spark.Analysis;
import io.pgbloat.spark.AnalyzeOptions;
import io.pgbloat.spark.BloatAnalyzer;
import io.pgbloat.spark.NoMatchException;
import org.apache.spark.sql.SparkSession;

/**
 * A scan's options, and the narrower filter a query's pushed filters made of them.
 *
 * @param options the options as given
 * @param narrowed the relations the pushed filters can keep, or null when none was pushed; when
 *     it names a database or table the directory lacks, {@code options} alone are read and
 *     Spark's filter keeps what it keeps (an empty answer, not an error)
 */
record PushedOptions(AnalyzeOptions options, RelationFilter narrowed) {
  /** What the scan reads first. */
  AnalyzeOptions read() {
    return narrowed == null ? options : options.withFilter(narrowed);
  }

  /** The analysis of the narrowed options, on the active session. */
  Analysis analyze() {
    try {
      return new BloatAnalyzer(SparkSession.active()).analyze(read());
    } catch (NoMatchException e) {
      if (narrowed == null) {
        throw e;
      }
      return new BloatAnalyzer(SparkSession.active()).analyze(options);
    }
  }
}
