package io.pgbloat.io.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.error.StoreAccessException;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * What the translation keeps out of a message and a task's failure: the values of sensitive
 * settings (a secret key, a session token) wherever a connector's text repeats them, and the
 * connector's own exceptions, which a task's failure could not carry to the driver.
 */
class StoreFailuresTest {
  private static final String SECRET = "wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY";
  private static final String TOKEN = "IQoJb3JpZ2luX2VjEXAMPLETOKEN";

  private static StoreFailures failures(String root) {
    Configuration conf = new Configuration();
    conf.set("fs.s3a.access.key", "AKIAEXAMPLE");
    conf.set("fs.s3a.secret.key", SECRET);
    conf.set("fs.s3a.session.token", TOKEN);
    conf.set("fs.s3a.endpoint", "http://127.0.0.1:9000");
    return new StoreFailures(root, URI.create(root), conf);
  }

  /** A connector's exception that holds what Java cannot serialize, as the AWS SDK's may. */
  private static final class UnserializableFailure extends IOException {
    private static final long serialVersionUID = 1L;
    /** Not serializable: writing this exception fails. */
    private final Thread thread = Thread.currentThread();

    UnserializableFailure(String message) {
      super(message + " (in " + Thread.currentThread().getName() + ")");
    }
  }

  @Test
  void aRefusalIsOneLineWithoutTheSecretsTheConnectorRepeated() throws IOException {
    AccessDeniedException refused = new AccessDeniedException("s3a://bucket/pgdata/PG_VERSION",
        null, "getFileStatus signed with " + SECRET + " and " + TOKEN + ": S3Exception: Forbidden (Service: S3, "
        + "Status Code: 403, Request ID: 1):SignatureDoesNotMatch");
    refused.initCause(new UnserializableFailure("the request said " + SECRET));
    StoreAccessException e = assertThrows(StoreAccessException.class,
        () -> failures("s3a://bucket/pgdata").check(refused, "PG_VERSION"));
    assertEquals("Cannot read s3a://bucket/pgdata/PG_VERSION: the store refused the credentials, or what they may "
        + "do (403 SignatureDoesNotMatch); check fs.s3a.access.key and fs.s3a.secret.key, or the provider named in "
        + "fs.s3a.aws.credentials.provider, and that these may list and read the bucket", e.getMessage());
    StringBuilder texts = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      texts.append(t).append('\n');
    }
    assertFalse(texts.toString().contains(SECRET) || texts.toString().contains(TOKEN), texts.toString());
    assertTrue(texts.toString().contains("java.nio.file.AccessDeniedException"), "what --debug shows: " + texts);
    try (ObjectOutputStream out = new ObjectOutputStream(new ByteArrayOutputStream())) {
      out.writeObject(e); // as a task's failure goes to the driver
    }
  }

  @Test
  void aFileProblemIsTheCallersFreedOfSecrets() {
    StoreFailures s3 = failures("s3a://bucket/pgdata");
    EOFException shortRead = new EOFException("base/5/1259: ends at 8192");
    assertSame(shortRead, s3.check(shortRead, "base/5/1259"));
    IOException told = s3.check(new FileNotFoundException("no base/5/1 (asked with " + SECRET + ")"), "base/5/1");
    assertInstanceOf(FileNotFoundException.class, told);
    assertEquals("no base/5/1 (asked with <redacted>)", told.getMessage());
    // not an object store's: only freed of secrets, however it failed
    IOException hdfs = failures("hdfs://nn:8020/pgdata").check(
        new AccessDeniedException("hdfs://user:" + SECRET + "@nn:8020/pgdata: " + TOKEN), "");
    assertEquals("hdfs://user:<redacted>@nn:8020/pgdata: <redacted>", hdfs.getMessage());
    assertEquals("s3a://AKIAEXAMPLE:<redacted>@bucket/pgdata", s3.shown("s3a://AKIAEXAMPLE:pass@bucket/pgdata"));
  }
}
