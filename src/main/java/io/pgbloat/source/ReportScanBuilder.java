package io.pgbloat.source;

import io.pgbloat.spark.AnalyzeOptions;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.sources.Filter;

/**
 * The report's scan, planned for what the query's filters can keep ({@link RelationPushdown}):
 * {@code .where("database = 'app' AND relname LIKE 'order%'")} reads those tables only. Every
 * filter is still applied by Spark to the rows.
 */
final class ReportScanBuilder implements ScanBuilder, SupportsPushDownFilters {
  private final AnalyzeOptions options;
  private AnalyzeOptions narrowed;
  private Filter[] pushed = new Filter[0];

  ReportScanBuilder(AnalyzeOptions options) {
    this.options = options;
    this.narrowed = options;
  }

  @Override
  public Filter[] pushFilters(Filter[] filters) {
    RelationPushdown pushdown = new RelationPushdown(options.filter());
    pushed = pushdown.push(filters);
    narrowed = options.withFilter(pushdown.filter());
    return filters; // all of them still evaluated on the rows: pushing only narrows what is read
  }

  @Override
  public Filter[] pushedFilters() {
    return pushed.clone();
  }

  @Override
  public Scan build() {
    return new ReportScan(narrowed, options);
  }
}
