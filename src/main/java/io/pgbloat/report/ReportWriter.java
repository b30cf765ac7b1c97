package io.pgbloat.report;

import io.pgbloat.rows.RelationReport;
import java.io.PrintWriter;
import java.util.List;

/** Writes the report's rows in one output format. */
public interface ReportWriter {
  void write(List<RelationReport> rows, PrintWriter out);

  /** The writer of a --format name, or null when there is none. */
  static ReportWriter forFormat(String format) {
    return switch (format) {
      case "table" -> new TableReport();
      case "csv" -> new CsvReport();
      case "json" -> new JsonReport();
      case "html" -> new HtmlReport(); // rows only: the CLI can pass the run's header and histograms instead
      default -> null;
    };
  }
}
