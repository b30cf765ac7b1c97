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
 * @param settings the connector's settings a failure to reach the store points to
 */
public record StoreConnector(String scheme, String artifact, boolean matchesHadoop, Settings settings) {
  private static final Settings S3A = new Settings(
      "fs.s3a.access.key and fs.s3a.secret.key, or the provider named in fs.s3a.aws.credentials.provider",
      "fs.s3a.session.token", "fs.s3a.endpoint", "fs.s3a.endpoint.region", "fs.s3a.retry.throttle.limit");
  private static final Settings GCS = new Settings("fs.gs.auth.type and the fs.gs.auth.* settings of that type",
      null, "fs.gs.storage.root.url", null, null);
  private static final Settings AZURE = new Settings("fs.azure.account.auth.type and the account's key "
      + "(fs.azure.account.key.ACCOUNT) or OAuth settings (fs.azure.account.oauth2.*)", null, null, null,
      "fs.azure.io.retry.max.retries");
  private static final Map<String, StoreConnector> BY_SCHEME = Map.of(
      "s3a", new StoreConnector("s3a", "org.apache.hadoop:hadoop-aws", true, S3A),
      "gs", new StoreConnector("gs", "com.google.cloud.bigdataoss:gcs-connector", false, GCS),
      "abfs", new StoreConnector("abfs", "org.apache.hadoop:hadoop-azure", true, AZURE),
      "abfss", new StoreConnector("abfss", "org.apache.hadoop:hadoop-azure", true, AZURE),
      "wasb", new StoreConnector("wasb", "org.apache.hadoop:hadoop-azure", true, AZURE),
      "wasbs", new StoreConnector("wasbs", "org.apache.hadoop:hadoop-azure", true, AZURE));

  /**
   * The Hadoop settings of a connector that its user fixes when the store cannot be used, as
   * its documentation names them; null where the connector has none (or the URI says it).
   *
   * @param credentials the settings that give the credentials, as a phrase
   * @param sessionToken the key of a session's token, which expires
   * @param endpoint the key of the store's address
   * @param region the key of the store's region, which a signature names
   * @param throttleRetries the key of how often a throttled request is tried again
   */
  public record Settings(String credentials, String sessionToken, String endpoint, String region,
      String throttleRetries) {}

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
