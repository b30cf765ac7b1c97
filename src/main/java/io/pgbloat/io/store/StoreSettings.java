package io.pgbloat.io.store;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;

/**
 * The Hadoop settings a run reaches its files with, beyond the class path's site files
 * (core-site.xml, hdfs-site.xml of {@code HADOOP_CONF_DIR}): an object store's endpoint and
 * credentials as users give them to Spark ({@code spark.hadoop.fs.s3a.endpoint ...}). Plain
 * data, so that the driver and every task build the same {@link Configuration} from it, as Spark
 * builds its own from {@code spark.hadoop.*} on each side. Its text names the keys only: the
 * values may be secrets.
 *
 * @param hadoop Hadoop keys and their values, applied over the site files
 */
public record StoreSettings(Map<String, String> hadoop) implements Serializable {
  /** Spark's prefix of a Hadoop setting given as a Spark property (SparkHadoopUtil's rule). */
  public static final String SPARK_HADOOP_PREFIX = "spark.hadoop.";

  /** The site files alone. */
  public static final StoreSettings DEFAULT = new StoreSettings(Map.of());

  public StoreSettings {
    hadoop = java.util.Collections.unmodifiableMap(new TreeMap<>(hadoop));
  }

  /** The Hadoop settings among Spark properties: each {@code spark.hadoop.KEY}, as KEY. */
  public static StoreSettings fromSpark(Map<String, String> sparkProperties) {
    Map<String, String> hadoop = new TreeMap<>();
    sparkProperties.forEach((key, value) -> {
      if (key.startsWith(SPARK_HADOOP_PREFIX) && key.length() > SPARK_HADOOP_PREFIX.length()) {
        hadoop.put(key.substring(SPARK_HADOOP_PREFIX.length()), value);
      }
    });
    return new StoreSettings(hadoop);
  }

  /**
   * What {@code conf} (a Spark session's Hadoop configuration) sets differently from the site
   * files: its {@code spark.hadoop.*} properties and whatever a notebook set on it. Spark's own
   * keys, which a session copies into it, are left out.
   */
  public static StoreSettings differingFromSite(Configuration conf) {
    Configuration site = new Configuration();
    Map<String, String> hadoop = new TreeMap<>();
    for (Map.Entry<String, String> e : conf) {
      String key = e.getKey();
      if (!key.startsWith("spark.") && !e.getValue().equals(site.getRaw(key))) {
        hadoop.put(key, e.getValue());
      }
    }
    return new StoreSettings(hadoop);
  }

  /**
   * The configuration to open file systems with: the site files, then these settings. Unless
   * either says otherwise, an unreachable or hung name node or object store fails in seconds
   * rather than after Hadoop's default minutes of retries.
   */
  public Configuration configuration() {
    Configuration conf = new Configuration();
    unlessSet(conf, "ipc.client.connect.max.retries", "2");
    unlessSet(conf, "ipc.client.connect.retry.interval", "1000");
    unlessSet(conf, "ipc.client.connect.timeout", "5000");
    unlessSet(conf, "ipc.client.connect.max.retries.on.timeouts", "2");
    // a name node that accepts connections but never answers: 10 s per try, not 60
    unlessSet(conf, "ipc.client.rpc-timeout.ms", "10000");
    unlessSet(conf, "ipc.ping.interval", "10000");
    objectStoreDefaults(conf);
    hadoop.forEach(conf::set);
    return conf;
  }

  /**
   * S3A's retries and timeouts (hadoop-aws's Constants), bounded: each request tried at most
   * twice by the AWS SDK (fs.s3a.attempts.maximum counts its retries) within three tries of S3A
   * (fs.s3a.retry.limit, 500 ms apart), so that an endpoint nobody listens on fails in seconds
   * and one that drops connections within half a minute; a throttled request tried five times by
   * S3A, its backoff doubling from 500 ms (S3A's default of 20 doublings would wait for days). The
   * times are in milliseconds, which S3A of any 3.x release reads (3.4 also takes "5s").
   */
  private void objectStoreDefaults(Configuration conf) {
    unlessSet(conf, "fs.s3a.attempts.maximum", "1");
    unlessSet(conf, "fs.s3a.retry.limit", "2");
    unlessSet(conf, "fs.s3a.retry.throttle.limit", "4");
    unlessSet(conf, "fs.s3a.connection.establish.timeout", "5000");
    // a store that accepts a request but never answers it: 10 s per try, not 200
    unlessSet(conf, "fs.s3a.connection.timeout", "10000");
  }

  /** Sets {@code key} unless a site file (not Hadoop's own *-default.xml) or these settings do. */
  private void unlessSet(Configuration conf, String key, String value) {
    String[] sources = conf.getPropertySources(key);
    boolean fromSite = sources != null && Arrays.stream(sources).anyMatch(src -> !src.endsWith("-default.xml"));
    if (!fromSite && !hadoop.containsKey(key)) {
      conf.set(key, value);
    }
  }

  @Override
  public String toString() {
    return "StoreSettings" + hadoop.keySet();
  }
}
