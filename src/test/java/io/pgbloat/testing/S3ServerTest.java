package io.pgbloat.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** S3Proxy as the tests use it, seen through Hadoop's S3A connector and a plain HTTPS client. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3ServerTest {
  private S3Server s3;

  @BeforeAll
  void startServer(@TempDir Path work) {
    s3 = S3Server.start(work);
  }

  @AfterAll
  void stopServer() {
    if (s3 != null) {
      s3.close();
    }
  }

  private FileSystem s3a(String bucket, String secretKey) throws java.io.IOException {
    return s3a(bucket, secretKey, new Configuration());
  }

  private FileSystem s3a(String bucket, String secretKey, Configuration conf) throws java.io.IOException {
    s3.hadoopSettings().forEach(conf::set);
    conf.set("fs.s3a.secret.key", secretKey);
    conf.set("fs.s3a.impl.disable.cache", "true");
    return FileSystem.get(URI.create("s3a://" + bucket + "/"), conf);
  }

  /**
   * A file written straight into a bucket's directory is an object, its size and bytes the file's;
   * but it has no ETag (the filesystem blob store keeps an object's MD5 in an extended attribute
   * that only a PUT writes), and S3A by default refuses to read an object without one.
   */
  @Test
  void servesFilesPutIntoTheBucketDirectory() throws Exception {
    s3.createBucket("direct");
    byte[] bytes = new byte[100_000];
    new Random(3).nextBytes(bytes);
    Path file = s3.bucketDirectory("direct").resolve("dir").resolve("file.bin");
    Files.createDirectories(file.getParent());
    Files.write(file, bytes);
    Configuration conf = new Configuration();
    conf.set("fs.s3a.change.detection.version.required", "false"); // an ETag may be missing
    try (FileSystem fs = s3a("direct", S3Server.SECRET_KEY, conf)) {
      org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("s3a://direct/dir/file.bin");
      FileStatus[] listed = fs.listStatus(path.getParent());
      assertEquals(1, listed.length);
      assertEquals(bytes.length, listed[0].getLen());
      assertEquals(bytes.length, fs.getFileStatus(path).getLen());
      byte[] read = new byte[1000];
      try (FSDataInputStream in = fs.open(path)) {
        in.readFully(bytes.length - read.length, read);
      }
      assertArrayEquals(Arrays.copyOfRange(bytes, bytes.length - read.length, bytes.length), read);
    }
  }

  /** An uploaded tree is in the bucket's directory at its keys' paths, an empty directory too. */
  @Test
  void uploadsATreeToItsKeysPaths(@TempDir Path tree) throws Exception {
    Files.createDirectories(tree.resolve("a/b"));
    Files.createDirectories(tree.resolve("empty"));
    Files.writeString(tree.resolve("a/b/c.txt"), "c");
    s3.createBucket("tree");
    s3.upload(tree, "tree", "root");
    assertEquals("c", Files.readString(s3.bucketDirectory("tree").resolve("root/a/b/c.txt")));
    try (FileSystem fs = s3a("tree", S3Server.SECRET_KEY)) {
      // S3Proxy lists the empty directory's marker in its parent, but (unlike S3) finds nothing
      // under its own prefix, so S3A's getFileStatus of it is FileNotFound: only the listing is asked
      Map<String, Boolean> listed = new TreeMap<>();
      for (FileStatus status : fs.listStatus(new org.apache.hadoop.fs.Path("s3a://tree/root"))) {
        listed.put(status.getPath().getName(), status.isDirectory());
      }
      assertEquals(Map.of("a", true, "empty", true), listed);
    }
  }

  @Test
  void refusesAWrongKey() throws Exception {
    s3.createBucket("guarded");
    try (FileSystem fs = s3a("guarded", "not-the-secret")) {
      assertThrows(AccessDeniedException.class, () -> fs.listStatus(new org.apache.hadoop.fs.Path("s3a://guarded/")));
    }
  }

  /** The HTTPS port answers with the key store's certificate (an unsigned request is refused). */
  @Test
  void answersOverTls() throws Exception {
    KeyStore trusted = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(s3.keyStore())) {
      trusted.load(in, S3Server.KEY_STORE_PASSWORD.toCharArray());
    }
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trusted);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, trust.getTrustManagers(), null);
    HttpClient client = HttpClient.newBuilder().sslContext(tls).build();
    HttpResponse<String> response = client.send(HttpRequest.newBuilder(s3.secureEndpoint().resolve("/")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(403, response.statusCode(), response.body());
    assertTrue(response.body().contains("AccessDenied"), response.body());
  }
}
