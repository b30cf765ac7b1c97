package io.pgbloat.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * A real S3 REST server in the test JVM: S3Proxy over jclouds' {@code filesystem} blob store, so
 * each bucket is a directory under a temporary one and each object a file in it (a key's
 * slashes are directories). It checks AWS signatures (V2 or V4) against one fixed test key, and
 * listens on free loopback ports: plain HTTP, and HTTPS with a self-signed certificate made at
 * start by the JDK's {@code keytool} (pgBackRest talks to S3 over TLS only).
 *
 * <p>Clients that should be counted, or slowed to a network's pace, use {@link #endpoint()}: a
 * {@link DelayingProxy} in front of the HTTP port, whose {@link #requests()} are the GET, HEAD and
 * LIST requests they made, and which can answer some itself with an S3 error ({@link #answer}).
 * {@link #secureEndpoint()} goes straight to the server, uncounted.
 */
public final class S3Server implements AutoCloseable {
  public static final String ACCESS_KEY = "pgbloat-test-access-key";
  public static final String SECRET_KEY = "pgbloat-test-secret-key";
  /** S3Proxy serves any region a signature names; this one is what clients are told. */
  public static final String REGION = "us-east-1";
  /** The password of {@link #keyStore()} and of the key in it. */
  /** jclouds' in-memory blob store. */
  private static final String IN_MEMORY = "transient";
  public static final String KEY_STORE_PASSWORD = "pgbloat-test";
  private static final String LOOPBACK = InetAddress.getLoopbackAddress().getHostAddress();

  private final Path bucketsDir;
  private final Path keyStore;
  private final BlobStoreContext blobStores;
  /** The store S3Proxy serves: the context's, or, in memory, one that lists at S3's cost. */
  private final BlobStore objects;
  private final S3Proxy server;
  private final DelayingProxy front;

  private S3Server(Path bucketsDir, Path keyStore, BlobStoreContext blobStores, BlobStore objects, S3Proxy server,
      DelayingProxy front) {
    this.bucketsDir = bucketsDir;
    this.keyStore = keyStore;
    this.blobStores = blobStores;
    this.objects = objects;
    this.server = server;
    this.front = front;
  }

  /** Starts a server keeping its buckets and key store under {@code workDir}; {@link #endpoint()} adds no delay. */
  public static S3Server start(Path workDir) {
    return start(workDir, Duration.ZERO);
  }

  /** Starts a server whose {@link #endpoint()} holds back each response for {@code latency}. */
  public static S3Server start(Path workDir, Duration latency) {
    return start(workDir, latency, "filesystem");
  }

  /**
   * As {@link #start(Path, Duration)}, its objects in memory (jclouds' {@code transient} blob
   * store) and its keys sorted ({@link SortedKeysBlobStore}), so that a page of a listing costs
   * the page, as on S3, where jclouds' stores walk or sort the whole prefix for every page; it
   * has no {@link #bucketDirectory}.
   */
  public static S3Server startInMemory(Path workDir, Duration latency) {
    return start(workDir, latency, IN_MEMORY);
  }

  private static S3Server start(Path workDir, Duration latency, String blobStore) {
    Path bucketsDir = workDir.resolve("buckets");
    Path keyStore = workDir.resolve("s3server.p12");
    try {
      Files.createDirectories(bucketsDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    makeKeyStore(keyStore);
    Properties overrides = new Properties();
    overrides.setProperty("jclouds.filesystem.basedir", bucketsDir.toString());
    BlobStoreContext blobStores = ContextBuilder.newBuilder(blobStore).overrides(overrides)
        .buildView(BlobStoreContext.class);
    BlobStore objects = blobStore.equals(IN_MEMORY) ? new SortedKeysBlobStore(blobStores.getBlobStore())
        : blobStores.getBlobStore();
    S3Proxy server = S3Proxy.builder()
        .blobStore(objects)
        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
        .endpoint(URI.create("http://" + LOOPBACK + ":0"))
        .secureEndpoint(URI.create("https://" + LOOPBACK + ":0"))
        .keyStore(keyStore.toString(), KEY_STORE_PASSWORD)
        .ignoreUnknownHeaders(true)
        .build();
    try {
      server.start();
    } catch (Exception e) {
      blobStores.close();
      throw new IllegalStateException("S3Proxy did not start", e);
    }
    DelayingProxy front = DelayingProxy.start(new InetSocketAddress(LOOPBACK, server.getPort()), latency);
    return new S3Server(bucketsDir, keyStore, blobStores, objects, server, front);
  }

  /** A PKCS #12 key store holding a new self-signed key for the loopback address. */
  private static void makeKeyStore(Path keyStore) {
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    ProcessRunner.run(List.of(keytool.toString(), "-genkeypair", "-keystore", keyStore.toString(),
        "-storetype", "PKCS12", "-storepass", KEY_STORE_PASSWORD, "-keypass", KEY_STORE_PASSWORD,
        "-alias", "s3server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "7",
        "-dname", "CN=" + LOOPBACK, "-ext", "SAN=ip:" + LOOPBACK + ",dns:localhost"),
        null, keyStore.getParent(), Duration.ofMinutes(1)).orThrow();
  }

  /** {@code http://127.0.0.1:port} through the counting (and, if asked, delaying) proxy. */
  public URI endpoint() {
    return front.endpoint("http");
  }

  /** {@code http://127.0.0.1:port} of the server itself: not counted, not delayed. */
  public URI directEndpoint() {
    return URI.create("http://" + LOOPBACK + ":" + server.getPort());
  }

  /** {@code https://127.0.0.1:port}, self-signed: a client must not verify the certificate. */
  public URI secureEndpoint() {
    return URI.create("https://" + LOOPBACK + ":" + server.getSecurePort());
  }

  /** The PKCS #12 key store of the HTTPS port: a client that trusts it can verify the server. */
  public Path keyStore() {
    return keyStore;
  }

  /**
   * From now on, answers the requests through {@link #endpoint()} that {@code plan} picks with
   * its S3 error, as an overloaded or refusing service would ({@link DelayingProxy#answer}).
   */
  public void answer(FaultPlan plan) {
    front.answer(plan);
  }

  /** How many requests through {@link #endpoint()} were answered by a {@link FaultPlan} so far. */
  public long answered() {
    return front.answered();
  }

  /** The requests made through {@link #endpoint()} so far. */
  public RequestCounts requests() {
    return front.requests();
  }

  /** Creates an empty bucket {@code name} (S3's rules: lower case, digits, dots and dashes). */
  public void createBucket(String name) {
    blobStore().createContainerInLocation(null, name);
  }

  /**
   * Puts every file under {@code localDir} into {@code bucket} as an object named
   * {@code prefix/<its relative path>}, and an empty directory as an empty
   * {@code prefix/<path>/} object (the marker Hadoop's S3A writes for one).
   */
  public void upload(Path localDir, String bucket, String prefix) {
    String keyPrefix = prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/";
    BlobStore blobStore = blobStore();
    try (Stream<Path> paths = Files.walk(localDir)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        String key = keyPrefix + localDir.relativize(path).toString();
        if (Files.isRegularFile(path)) {
          blobStore.putBlob(bucket, blobStore.blobBuilder(key).payload(path.toFile())
              .contentLength(Files.size(path)).build());
        } else if (Files.isDirectory(path) && isEmpty(path) && !path.equals(localDir)) {
          blobStore.putBlob(bucket, blobStore.blobBuilder(key + "/").payload(new byte[0]).build());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot upload " + localDir, e);
    }
  }

  private static boolean isEmpty(Path dir) throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.findAny().isEmpty();
    }
  }

  /**
   * The local directory holding {@code bucket}'s objects, one file per object at its key's path.
   * A file put straight into it is served as an object, but without an ETag (the blob store
   * keeps an object's MD5 in an extended attribute only a PUT writes): S3A then reads it only with
   * {@code fs.s3a.change.detection.version.required=false}.
   */
  public Path bucketDirectory(String bucket) {
    return bucketsDir.resolve(bucket);
  }

  /**
   * The Hadoop settings with which S3A reads this server's buckets through {@link #endpoint()}:
   * its address, path-style requests (a bucket in the path, not the host name), the test key, no
   * TLS. Credentials are the plain key pair, so no other provider in the chain (environment,
   * instance metadata) is asked.
   */
  public Map<String, String> hadoopSettings() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("fs.s3a.endpoint", endpoint().toString());
    settings.put("fs.s3a.endpoint.region", REGION);
    settings.put("fs.s3a.path.style.access", "true");
    settings.put("fs.s3a.connection.ssl.enabled", "false");
    settings.put("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    settings.put("fs.s3a.access.key", ACCESS_KEY);
    settings.put("fs.s3a.secret.key", SECRET_KEY);
    return settings;
  }

  private BlobStore blobStore() {
    return objects;
  }

  @Override
  public void close() {
    front.close();
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("S3Proxy did not stop", e);
    } finally {
      blobStores.close();
    }
  }
}
