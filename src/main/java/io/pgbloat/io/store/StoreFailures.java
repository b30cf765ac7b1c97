package io.pgbloat.io.store;

import io.pgbloat.error.NotADataDirectoryException;
import io.pgbloat.error.StoreAccessException;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.ConfigRedactor;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.ConnectTimeoutException;

/**
 * What an object store's failure means to its user, in one line that names the setting or the
 * object to fix: credentials refused, expired or not found, a bucket the store does not have,
 * throttling that outlasted the retries, an endpoint that cannot be reached. The connector's
 * exceptions are told apart by the types the JDK and Hadoop declare ({@link AccessDeniedException},
 * {@link ConnectException}, ...), by the HTTP status and S3 error code their text carries, and,
 * where nothing generic tells, by the names of S3A's classes: the connector is not on the tool's
 * class path (a cluster brings it). A failure of one file (not found, short) is left to the
 * caller. No message leaves here with a secret in it: the values of the settings Hadoop deems
 * sensitive ({@link ConfigRedactor}, {@code hadoop.security.sensitive-config-keys}) and the
 * password of a URI are replaced.
 */
final class StoreFailures {
  /**
   * The AWS SDK's text of a service's error, "(Service: S3, Status Code: 403, Request ID: ...)",
   * to which S3A appends ":" and S3's error code (none for HEAD, whose error has no body).
   */
  private static final Pattern SERVICE_ERROR = Pattern.compile("Status Code: (\\d{3})[^)]*\\)(?::(\\w+))?");
  /** A URI's user and password, "scheme://user:password@". */
  private static final Pattern URI_PASSWORD = Pattern.compile("(\\w+://[^/\\s:@]*):[^/\\s@]*@");
  private static final String REDACTED = "<redacted>";
  /** S3's error codes for a session token that no longer signs (Amazon S3 API reference, "Error responses"). */
  private static final Set<String> TOKEN_CODES = Set.of("ExpiredToken", "TokenRefreshRequired", "InvalidToken");
  /** S3's error codes for a request rate it will not take. */
  private static final Set<String> THROTTLE_CODES = Set.of("SlowDown", "Throttling", "ThrottlingException",
      "RequestLimitExceeded", "TooManyRequestsException");
  /** S3A's exception for a provider chain that found no credentials (a superclass of each it throws). */
  private static final String S3A_NO_CREDENTIALS = "org.apache.hadoop.fs.s3a.auth.NoAuthWithAWSException";
  /** S3A's exception for a bucket the store does not have. */
  private static final String S3A_NO_BUCKET = "org.apache.hadoop.fs.s3a.UnknownStoreException";
  /** How deep a chain of causes is looked into and copied. */
  private static final int MAX_CAUSES = 16;

  private final String root;
  private final URI rootUri;
  /** Null when the store is not an object store's: its failures are only freed of secrets. */
  private final StoreConnector connector;
  private final Configuration conf;
  /** The sensitive settings' values, found once a message needs them; null before. */
  private volatile Set<String> secrets;

  StoreFailures(String root, URI rootUri, Configuration conf) {
    this.root = root;
    this.rootUri = rootUri;
    this.connector = StoreConnector.of(rootUri.getScheme()).orElse(null);
    this.conf = conf;
  }

  /** What went wrong with the store, and what a message says of it. */
  private enum Kind { NO_CREDENTIALS, TOKEN_EXPIRED, REFUSED, NO_BUCKET, THROTTLED, UNREACHABLE, BAD_REQUEST, FAILED }

  /**
   * A failure of the store, told from an exception and its causes.
   *
   * @param detail what the store or the connector said: a status and S3 code, or a network error
   */
  private record Diagnosis(Kind kind, String detail) {}

  /**
   * {@code e}, raised reading {@code path} (relative to the root), as the caller is to throw it:
   * a failure of the store itself is thrown here, in one line; any other comes back, freed of
   * secrets.
   *
   * @throws StoreAccessException when the store refused, throttled, failed or could not be reached
   * @throws NotADataDirectoryException when the store has no such bucket
   */
  IOException check(IOException e, String path) {
    List<Throwable> chain = chainOf(e);
    Diagnosis diagnosis = connector == null ? null : diagnose(chain);
    if (diagnosis == null) {
      return withoutSecrets(e);
    }
    String message = redact("Cannot read " + (path.isEmpty() ? root : root + "/" + path) + ": "
        + explain(diagnosis));
    if (diagnosis.kind() == Kind.NO_BUCKET) {
      throw new NotADataDirectoryException(message, copy(e, 0));
    }
    throw new StoreAccessException(message, copy(e, 0));
  }

  /** {@code text} (a path, a message) as a message may show it: without a secret. */
  String shown(String text) {
    return redact(text);
  }

  private static List<Throwable> chainOf(Throwable e) {
    List<Throwable> chain = new ArrayList<>();
    for (Throwable t = e; t != null && chain.size() < MAX_CAUSES && !chain.contains(t); t = t.getCause()) {
      chain.add(t);
    }
    return chain;
  }

  private static Diagnosis diagnose(List<Throwable> chain) {
    String status = null;
    String code = null;
    for (Throwable t : chain) {
      Matcher m = SERVICE_ERROR.matcher(String.valueOf(t.getMessage()));
      if (m.find() && (status == null || code == null && m.group(2) != null)) {
        status = m.group(1);
        code = "null".equals(m.group(2)) ? null : m.group(2);
      }
    }
    String detail = status == null ? oneLine(lastPart(chain.get(0).getMessage()))
        : code == null ? status : status + " " + code;
    if (isNamed(chain, S3A_NO_CREDENTIALS)) {
      return new Diagnosis(Kind.NO_CREDENTIALS, providersTried(chain));
    }
    if (code != null && TOKEN_CODES.contains(code)) {
      return new Diagnosis(Kind.TOKEN_EXPIRED, detail);
    }
    if (chain.stream().anyMatch(t -> t instanceof AccessDeniedException) || "401".equals(status)
        || "403".equals(status)) {
      return new Diagnosis(Kind.REFUSED, detail);
    }
    if (isNamed(chain, S3A_NO_BUCKET) || "NoSuchBucket".equals(code)) {
      return new Diagnosis(Kind.NO_BUCKET, detail);
    }
    if ("429".equals(status) || "503".equals(status) || code != null && THROTTLE_CODES.contains(code)) {
      return new Diagnosis(Kind.THROTTLED, detail);
    }
    Throwable network = null;
    for (Throwable t : chain) {
      if (t instanceof ConnectException || t instanceof NoRouteToHostException || t instanceof UnknownHostException
          || t instanceof SocketTimeoutException || t instanceof ConnectTimeoutException) {
        network = t; // the innermost says it plainest: "Connection refused"
      }
    }
    if (network != null) {
      return new Diagnosis(Kind.UNREACHABLE, network instanceof UnknownHostException
          ? "unknown host " + network.getMessage() : oneLine(lastPart(network.getMessage())));
    }
    if ("400".equals(status)) {
      return new Diagnosis(Kind.BAD_REQUEST, detail);
    }
    return status != null && status.startsWith("5") ? new Diagnosis(Kind.FAILED, detail) : null;
  }

  /** The sentence of S3A's failure that names the credential providers it asked, without their own causes. */
  private static String providersTried(List<Throwable> chain) {
    for (Throwable t : chain) {
      if (isA(t.getClass(), S3A_NO_CREDENTIALS)) {
        String text = oneLine(String.valueOf(t.getMessage()));
        int cause = text.indexOf(" : ");
        return cause < 0 ? text : text.substring(0, cause);
      }
    }
    return null;
  }

  private String explain(Diagnosis d) {
    StoreConnector.Settings s = connector.settings();
    return switch (d.kind()) {
      case NO_CREDENTIALS -> "found no credentials for the store (" + d.detail() + "); set " + s.credentials();
      case TOKEN_EXPIRED -> "the store says the session token of the credentials has expired (" + d.detail()
          + "); " + renew(s) + " and run again";
      case REFUSED -> "the store refused the credentials, or what they may do (" + d.detail() + "); check "
          + s.credentials() + ", and that these may list and read the bucket";
      case NO_BUCKET -> "the store" + at() + " has no bucket '" + rootUri.getAuthority() + "'; check the bucket's name"
          + (s.endpoint() == null ? "" : " and " + s.endpoint());
      case THROTTLED -> "the store kept throttling the requests (" + d.detail() + ") through every retry; run again "
          + "later or with fewer executors" + (s.throttleRetries() == null ? ""
              : ", or let it retry more (" + s.throttleRetries() + ")");
      case UNREACHABLE -> "cannot reach the store" + at() + " (" + d.detail() + "); check "
          + (s.endpoint() == null ? "the host in the path" : s.endpoint()) + " and that the store is up and "
          + "reachable from here";
      case BAD_REQUEST -> "the store refused a request (" + d.detail() + "), as S3 refuses one signed with an expired "
          + "session token" + (s.region() == null ? "; " + renew(s)
              : " or for another region than the bucket's; " + renew(s) + ", or check " + s.region());
      case FAILED -> "the store failed the request (" + d.detail() + ") through every retry; run again later";
    };
  }

  /** What to renew when a session's credentials expire. */
  private static String renew(StoreConnector.Settings s) {
    return s.sessionToken() == null ? "renew the credentials (" + s.credentials() + ")"
        : "renew " + s.sessionToken() + " with its keys (" + s.credentials() + ")";
  }

  /** Where the store was asked: " at KEY VALUE" of the connector's endpoint setting; "" when the URI alone says. */
  private String at() {
    String key = connector.settings().endpoint();
    if (key == null) {
      return "";
    }
    String endpoint = conf.getTrimmed(key, "");
    return endpoint.isEmpty() ? " at its default endpoint (" + key + " is not set)" : " at " + key + " " + endpoint;
  }

  private static boolean isNamed(List<Throwable> chain, String className) {
    return chain.stream().anyMatch(t -> isA(t.getClass(), className));
  }

  /** Whether {@code type} is the class named {@code className} or extends it (a class not on the tool's class path). */
  private static boolean isA(Class<?> type, String className) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      if (c.getName().equals(className)) {
        return true;
      }
    }
    return false;
  }

  /** The last part of a message that nests its causes' ("...: Connection refused"). */
  private static String lastPart(String message) {
    if (message == null) {
      return "no answer";
    }
    int colon = message.lastIndexOf(": ");
    return colon < 0 ? message : message.substring(colon + 2);
  }

  private static String oneLine(String text) {
    return text.replaceAll("\\s+", " ").trim();
  }

  /**
   * {@code e} as it is when its text holds no secret; else one of its kind (file not found,
   * end of file, or plain) whose text has them replaced, without the causes that hold them.
   */
  private IOException withoutSecrets(IOException e) {
    String message = e.getMessage();
    String redacted = message == null ? null : redact(message);
    if (message == null || redacted.equals(message)) {
      return e;
    }
    if (e instanceof FileNotFoundException) {
      return new FileNotFoundException(redacted);
    }
    return e instanceof EOFException ? new EOFException(redacted) : new IOException(redacted);
  }

  /** {@code text} without a URI's password or the value of any sensitive setting. */
  private String redact(String text) {
    String redacted = URI_PASSWORD.matcher(text).replaceAll("$1:" + REDACTED + "@");
    for (String secret : secrets()) {
      redacted = redacted.replace(secret, REDACTED);
    }
    return redacted;
  }

  /** The values of the settings Hadoop would not show, longest first (so none is left in part). */
  private Set<String> secrets() {
    Set<String> found = secrets;
    if (found == null) {
      ConfigRedactor redactor = new ConfigRedactor(conf);
      found = new TreeSet<>((a, b) -> a.length() != b.length() ? b.length() - a.length() : a.compareTo(b));
      for (Map.Entry<String, String> setting : conf) {
        String value = setting.getValue();
        if (value != null && !value.isBlank() && !value.equals(redactor.redact(setting.getKey(), value))) {
          found.add(value.trim());
        }
      }
      secrets = found;
    }
    return found;
  }

  /**
   * A copy of {@code t} and its causes as text (class, message, where thrown), secrets replaced:
   * what --debug shows of it, which a task's failure can carry to the driver whatever the
   * connector's classes hold.
   */
  private Throwable copy(Throwable t, int depth) {
    if (t == null || depth >= MAX_CAUSES) {
      return null;
    }
    return new CopiedFailure(t, redact(t.toString()), t.getCause() == t ? null : copy(t.getCause(), depth + 1));
  }

  /** A connector's exception as text. */
  private static final class CopiedFailure extends IOException {
    private static final long serialVersionUID = 1L;

    CopiedFailure(Throwable original, String text, Throwable cause) {
      super(text, cause);
      setStackTrace(original.getStackTrace());
    }

    @Override
    public String toString() {
      return getMessage();
    }
  }
}
