package io.pgbloat.io.store;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.util.VersionInfo;

/**
 * The Hadoop connectors of the object stores, by the URI scheme each serves: they are not in the
 * tool's jar (a cluster brings its own), so a scheme no file system serves is answered with the
 * package that would serve it. The artifacts are those the connectors publish to Maven Central
 * (hadoop-aws for S3A, hadoop-azure for ABFS and WASB, Google's gcs-connector for GCS).
 *
 * @param scheme the URI scheme
 * @param artifact the connector's Maven coordinates, without the version
 * @param matchesHadoop whether the connector is released with Hadoop, at Hadoop's own version
 */
public record StoreConnector(String scheme, String artifact, boolean matchesHadoop) {
  private static final Map<String, StoreConnector> BY_SCHEME = Map.of(
      "s3a", new StoreConnector("s3a", "org.apache.hadoop:hadoop-aws", true),
      "gs", new StoreConnector("gs", "com.google.cloud.bigdataoss:gcs-connector", false),
      "abfs", new StoreConnector("abfs", "org.apache.hadoop:hadoop-azure", true),
      "abfss", new StoreConnector("abfss", "org.apache.hadoop:hadoop-azure", true),
      "wasb", new StoreConnector("wasb", "org.apache.hadoop:hadoop-azure", true),
      "wasbs", new StoreConnector("wasbs", "org.apache.hadoop:hadoop-azure", true));

  /** The connector that serves {@code scheme}, if it is an object store's. */
  public static Optional<StoreConnector> of(String scheme) {
    return Optional.ofNullable(scheme == null ? null : BY_SCHEME.get(scheme.toLowerCase(Locale.ROOT)));
  }

  /**
   * What to add to the class path, as spark-submit takes it: the artifact at the Hadoop version
   * the tool runs with where the connector is released with Hadoop, else the artifact alone (its
   * release that matches the cluster's Hadoop is the user's to pick).
   */
  public String packageToAdd() {
    return matchesHadoop ? artifact + ":" + VersionInfo.getVersion() : artifact;
  }
}
