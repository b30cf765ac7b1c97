package io.pgbloat.source;

import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * {@code spark.read.format("pgbloat").option("sampleBlocks", "3000").load(dataDir)}: the
 * bloat report of a PostgreSQL data directory as a DataFrame, or with
 * {@code option("level", "pages")} one row per page read. Registered under its short name in
 * {@code META-INF/services/org.apache.spark.sql.sources.DataSourceRegister}.
 */
public final class PgBloatDataSource implements TableProvider, DataSourceRegister {
  public static final String SHORT_NAME = "pgbloat";

  @Override
  public String shortName() {
    return SHORT_NAME;
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return SourceOptions.parse(options).level().schema();
  }

  @Override
  public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
    return new BloatTable(SourceOptions.parse(new CaseInsensitiveStringMap(properties))
        .withStore(SessionStoreSettings.of(SparkSession.active())));
  }
}
