package io.pgbloat.report;

import io.pgbloat.spark.Analysis;
import java.time.Instant;
import java.util.List;

/**
 * What the HTML report says about its run beyond the rows: where the data came from, when,
 * and what went wrong or is worth knowing. The mode (full scan or sample), the seed, the
 * blocks read and the bad pages are taken from the rows themselves.
 *
 * @param dataDirectory the data directory as given (a path or a URI)
 * @param runTime when the run started
 * @param findings bad data found (Analysis.findings), one line each; may be empty
 * @param warnings things to know that change no figure (Analysis.warnings); may be empty
 */
public record HtmlReportHeader(String dataDirectory, Instant runTime, List<String> findings, List<String> warnings) {

  public HtmlReportHeader {
    findings = List.copyOf(findings);
    warnings = List.copyOf(warnings);
  }

  /** The header of a run of {@code analysis} on {@code dataDirectory}, started at {@code runTime}. */
  public static HtmlReportHeader of(String dataDirectory, Instant runTime, Analysis analysis) {
    return new HtmlReportHeader(dataDirectory, runTime, analysis.findings(), analysis.warnings());
  }

  /** For a report written through {@link ReportWriter} alone, which knows only the rows. */
  static HtmlReportHeader unknown(Instant writtenAt) {
    return new HtmlReportHeader("(not given)", writtenAt, List.of(), List.of());
  }
}
