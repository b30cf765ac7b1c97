package io.pgbloat.source;

import io.pgbloat.io.store.StoreSettings;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;

/**
 * The Hadoop settings a notebook's session reaches a data directory with, as Spark's own file
 * sources do: its SparkContext's Hadoop configuration (the {@code spark.hadoop.*} properties it
 * started with, and whatever was set on it since), then the session's {@code spark.hadoop.*}
 * properties ({@code spark.conf.set}).
 */
final class SessionStoreSettings {
  private SessionStoreSettings() {}

  static StoreSettings of(SparkSession spark) {
    Configuration conf = new Configuration(spark.sparkContext().hadoopConfiguration());
    StoreSettings.fromSpark(asJava(spark.conf().getAll())).hadoop().forEach(conf::set);
    return StoreSettings.differingFromSite(conf);
  }

  private static Map<String, String> asJava(scala.collection.immutable.Map<String, String> map) {
    return scala.jdk.javaapi.CollectionConverters.asJava(map);
  }
}
