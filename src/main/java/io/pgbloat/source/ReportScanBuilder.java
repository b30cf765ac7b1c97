package io.pgbloat.source;

import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.report.Column;
import io.pgbloat.report.IndexColumns;
import io.pgbloat.report.RelationColumns;
import io.pgbloat.report.TotalColumns;
import io.pgbloat.spark.Analysis;
import io.pgbloat.spark.AnalyzeOptions;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A report's scan (level report, indexes or totals), planned for what the query can use:
 * its filters on names and kinds narrow the relations read ({@link RelationPushdown}:
 * {@code .where("database = 'app' AND relname LIKE 'order%'")} reads those only; Spark still
 * applies every filter to the rows), and the columns it asks for prune the index and totals
 * reports (totals asked for no column the indexes go into, {@link TotalColumns#FROM_INDEXES},
 * leave the indexes unread).
 */
final class ReportScanBuilder implements ScanBuilder, SupportsPushDownFilters, SupportsPushDownRequiredColumns {
  private final Level level;
  private final AnalyzeOptions options;
  private RelationFilter narrowed; // null until filters are pushed
  private Filter[] pushed = new Filter[0];
  private Set<String> required; // the columns the query reads; null for all

  /** @param level report, indexes or totals: the pages have a scan of their own ({@link PageScan}) */
  ReportScanBuilder(Level level, AnalyzeOptions options) {
    this.level = level;
    this.options = options;
  }

  @Override
  public Filter[] pushFilters(Filter[] filters) {
    RelationPushdown pushdown = new RelationPushdown(options.filter());
    pushed = pushdown.push(filters);
    narrowed = pushed.length == 0 ? null : pushdown.filter();
    return filters; // all of them still evaluated on the rows: pushing only narrows what is read
  }

  @Override
  public Filter[] pushedFilters() {
    return pushed.clone();
  }

  @Override
  public void pruneColumns(StructType requiredSchema) {
    required = Set.copyOf(Arrays.stream(requiredSchema.fields()).map(StructField::name).toList());
  }

  @Override
  public Scan build() {
    return switch (level) {
      // the report's columns all come of the same counts: it reads the same whatever is asked
      case REPORT -> new ReportScan<>(new PushedOptions(options, narrowed), "report", asked(RelationColumns.ALL),
          Analysis::rows);
      case INDEXES -> new ReportScan<>(new PushedOptions(options, narrowed), "indexes",
          asked(IndexColumns.ALL), Analysis::indexes);
      case TOTALS -> {
        boolean withIndexes = required == null || required.stream().anyMatch(TotalColumns.FROM_INDEXES::contains);
        AnalyzeOptions.Totals scope = withIndexes ? AnalyzeOptions.Totals.WITH_INDEXES
            : AnalyzeOptions.Totals.WITHOUT_INDEXES;
        yield new ReportScan<>(new PushedOptions(options.withTotals(scope), narrowed),
            withIndexes ? "totals" : "totals, indexes unread", asked(TotalColumns.ALL), Analysis::totals);
      }
      case PAGES -> throw new IllegalArgumentException("level pages is not a report: it has its own scan");
    };
  }

  /** The columns of {@code all} the query asks for, in the report's order. */
  private <R> List<Column<R>> asked(List<Column<R>> all) {
    return required == null ? all : all.stream().filter(c -> required.contains(c.name())).toList();
  }
}
