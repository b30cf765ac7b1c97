package io.pgbloat.source;

import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** One data directory, readable as the report or as its pages. */
final class BloatTable implements SupportsRead {
  private final SourceOptions options;

  BloatTable(SourceOptions options) {
    this.options = options;
  }

  @Override
  public String name() {
    return "pgbloat " + options.level().name().toLowerCase(java.util.Locale.ROOT) + " of " + options.analyze().dataDir();
  }

  @Override
  @SuppressWarnings("deprecation") // Table.schema() is what Spark 4.0 still calls by default
  public StructType schema() {
    return options.level().schema();
  }

  @Override
  public Set<TableCapability> capabilities() {
    return Set.of(TableCapability.BATCH_READ);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap scanOptions) {
    if (options.level() == Level.PAGES) {
      return () -> new PageScan(options.analyze());
    }
    return new ReportScanBuilder(options.level(), options.analyze());
  }
}
