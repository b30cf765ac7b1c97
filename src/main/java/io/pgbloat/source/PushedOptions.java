package io.pgbloat.source;

import io.pgbloat.spark.Analysis;
import io.pgbloat.spark.AnalyzeOptions;
import io.pgbloat.spark.BloatAnalyzer;
import io.pgbloat.spark.NoMatchException;
import org.apache.spark.sql.SparkSession;

/**
 * A scan's options as a query's pushed filters narrowed them, and as they were.
 *
 * @param narrowed what the scan reads
 * @param unfiltered the options before the filters: when the narrowed ones name a database or
 *     table the directory lacks, these are read and Spark's filter keeps what it keeps (an empty
 *     answer, not an error)
 */
record PushedOptions(AnalyzeOptions narrowed, AnalyzeOptions unfiltered) {
  /** The analysis of the narrowed options, on the active session. */
  Analysis analyze() {
    try {
      return new BloatAnalyzer(SparkSession.active()).analyze(narrowed);
    } catch (NoMatchException e) {
      if (narrowed == unfiltered) {
        throw e;
      }
      return new BloatAnalyzer(SparkSession.active()).analyze(unfiltered);
    }
  }
}
