package io.pgbloat.report;

import io.pgbloat.rows.IndexReport;
import io.pgbloat.rows.RelationReport;
import io.pgbloat.rows.TableTotal;
import java.io.PrintWriter;
import java.util.List;

/** Writes a report's rows (relations, indexes or totals) in one output format. */
public interface ReportWriter<R> {
  void write(List<R> rows, PrintWriter out);

  /** The relation report's writer of a --format name, or null when there is none. */
  static ReportWriter<RelationReport> forFormat(String format) {
    return switch (format) {
      case "table" -> new TableReport();
      case "html" -> new HtmlReport(); // rows only: the CLI can pass the run's header and histograms instead
      default -> ofColumns(format, RelationColumns.ALL);
    };
  }

  /** The index report's ({@code --indexes}) writer: csv, json, or else the terminal table. */
  static ReportWriter<IndexReport> forIndexes(String format) {
    ReportWriter<IndexReport> columns = ofColumns(format, IndexColumns.ALL);
    return columns != null ? columns : new IndexTableReport();
  }

  /** The totals' ({@code --totals}) writer: csv, json, or else the terminal table. */
  static ReportWriter<TableTotal> forTotals(String format) {
    ReportWriter<TableTotal> columns = ofColumns(format, TotalColumns.ALL);
    return columns != null ? columns : new TotalsTableReport();
  }

  /** The writer of {@code columns} in csv or json, or null for any other format. */
  private static <R> ReportWriter<R> ofColumns(String format, List<Column<R>> columns) {
    return switch (format) {
      case "csv" -> new CsvReport<>(columns);
      case "json" -> new JsonReport<>(columns);
      default -> null;
    };
  }
}
