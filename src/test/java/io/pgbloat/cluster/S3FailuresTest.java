package io.pgbloat.cluster;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.io.read.IoSettings;
import io.pgbloat.io.store.StoreSettings;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.spark.AnalysisPlanner;
import io.pgbloat.spark.AnalyzeOptions;
import io.pgbloat.testing.FaultPlan;
import io.pgbloat.testing.RequestCounts;
import io.pgbloat.testing.RequestKind;
import io.pgbloat.testing.S3ErrorReply;
import io.pgbloat.testing.S3Server;
import io.pgbloat.testing.SampleData;
import io.pgbloat.testing.ToolRun;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bad input on an object store, through the command line against a real S3 server (S3Proxy in
 * this JVM) read by Hadoop's S3A: wrong or missing credentials, a bucket or a prefix that is not
 * there, an endpoint nobody listens on, throttling, credentials that expire mid-run. Each ends
 * in one line on standard error (and the usage hint where a wrong path is the user's to fix),
 * the exit status a local copy's equivalent gets, no stack trace and no report; the line names
 * the setting or the object to fix, and never a secret; nothing but reads reaches the store.
 * Throttling that S3A's retries outlast changes nothing in the report.
 */
class S3FailuresTest {
  private static final String BUCKET = "pgbloat-failures";
  private static final String DATA_DIR = "s3a://" + BUCKET + "/pgdata";
  private static final String[] SAMPLING = {"--sample-blocks", "5", "--seed", "3"};
  private static final String HINT = "Try 'submit.sh --help' for the options.";
  /** What a wrong secret is set to: it must never be shown either. */
  private static final String WRONG_SECRET = "not-the-secret-but-secret-too";
  /** Far above the time every bounded failure takes with the tool's retry defaults, far below S3A's own. */
  private static final Duration BOUNDED = Duration.ofSeconds(60);

  @TempDir static Path temp;
  private static S3Server s3;
  private static ToolRun clean;
  /** The requests of the clean run, and of its plan alone (the driver's, before any task). */
  private static long cleanRequests;
  private static long planRequests;

  @BeforeAll
  static void startS3AndRunOnceClean() {
    s3 = S3Server.start(temp.resolve("s3"));
    s3.createBucket(BUCKET);
    s3.upload(SampleData.dataDir(), BUCKET, "pgdata");
    RequestCounts before = s3.requests();
    clean = run(DATA_DIR, settings());
    cleanRequests = s3.requests().since(before).total();
    assertEquals(0, clean.status(), clean.describe());
    assertTrue(clean.out().lines().count() > 100, clean.out());
    before = s3.requests();
    AnalysisPlanner.plan(new AnalyzeOptions(DATA_DIR, RelationFilter.all(), SampleSize.blocks(5), 3,
        IoSettings.defaults()).withStore(new StoreSettings(settings())));
    planRequests = s3.requests().since(before).total();
    assertTrue(planRequests > 0 && planRequests < cleanRequests, planRequests + " of " + cleanRequests);
  }

  @AfterEach
  void passEveryRequestAgain() {
    s3.answer(FaultPlan.NONE);
  }

  @AfterAll
  static void stopS3() {
    if (s3 != null) {
      s3.close();
    }
  }

  /**
   * The server's S3A settings, with a file system made for each run (as each run has in a JVM
   * of its own): Hadoop's cache would hand a later run the first run's, credentials and all.
   */
  private static Map<String, String> settings() {
    Map<String, String> settings = new LinkedHashMap<>(s3.hadoopSettings());
    settings.put("fs.s3a.impl.disable.cache", "true");
    return settings;
  }

  private static Map<String, String> settingsWith(String key, String value) {
    Map<String, String> settings = settings();
    if (value == null) {
      settings.remove(key);
    } else {
      settings.put(key, value);
    }
    return settings;
  }

  private static ToolRun run(String dataDir, Map<String, String> hadoop) {
    List<String> args = new ArrayList<>(List.of("analyze", "--data-dir", dataDir, "--format", "csv",
        "--master", "local[2]"));
    hadoop.forEach((key, value) -> args.addAll(List.of("--conf", StoreSettings.SPARK_HADOOP_PREFIX + key + "=" + value)));
    args.addAll(List.of(SAMPLING));
    return ToolRun.of(args.toArray(String[]::new));
  }

  /** A run and the requests it made of the store. */
  private record Outcome(ToolRun run, RequestCounts asked) {}

  private static Outcome measured(Supplier<ToolRun> run) {
    RequestCounts before = s3.requests();
    ToolRun done = run.get();
    return new Outcome(done, s3.requests().since(before));
  }

  /**
   * {@code o} failed with {@code status} in one line (and the hint for status 2), no stack trace,
   * no report, no secret, only reads asked of the store; the line names each of {@code named}.
   * Returns the line.
   */
  private static String assertOneLine(Outcome o, int status, String... named) {
    ToolRun r = o.run();
    List<String> lines = r.err().lines().toList();
    String line = lines.isEmpty() ? "" : lines.get(0);
    List<org.junit.jupiter.api.function.Executable> checks = new ArrayList<>(List.of(
        () -> assertEquals(status, r.status(), r.describe()),
        () -> assertEquals(status == 2 ? List.of(line, HINT) : List.of(line), lines, r.describe()),
        () -> assertTrue(line.startsWith("pgbloat: ") && !line.contains("unexpected failure"), line),
        () -> assertFalse(r.err().contains("\tat ") || r.err().contains("Exception"), r.describe()),
        () -> assertEquals("", r.out(), "no report"),
        () -> assertFalse(r.err().contains(S3Server.SECRET_KEY) || r.err().contains(WRONG_SECRET), line),
        () -> assertEquals(0, o.asked().of(RequestKind.PUT) + o.asked().of(RequestKind.POST)
            + o.asked().of(RequestKind.DELETE) + o.asked().of(RequestKind.OTHER), "only reads: " + o.asked())));
    for (String name : named) {
      checks.add(() -> assertTrue(line.contains(name), "names " + name + ": " + line));
    }
    assertAll(checks);
    return line;
  }

  @Test
  void aWrongSecretOrKeyNamesTheKeys() {
    Outcome secret = measured(() -> run(DATA_DIR, settingsWith("fs.s3a.secret.key", WRONG_SECRET)));
    assertOneLine(secret, 1, "Cannot read " + DATA_DIR + ": ", "fs.s3a.access.key", "fs.s3a.secret.key",
        "fs.s3a.aws.credentials.provider", "403 SignatureDoesNotMatch");
    Outcome key = measured(() -> run(DATA_DIR, settingsWith("fs.s3a.access.key", "AKIANOSUCHKEY0000000")));
    assertOneLine(key, 1, "fs.s3a.access.key", "fs.s3a.secret.key", "403 InvalidAccessKeyId");
  }

  /** No keys for the plain key provider (the only one asked, so none of this machine's own is found). */
  @Test
  void noCredentialsNamesWhatToSet() {
    Map<String, String> none = settingsWith("fs.s3a.access.key", null);
    none.remove("fs.s3a.secret.key");
    Outcome o = measured(() -> run(DATA_DIR, none));
    String line = assertOneLine(o, 1, "found no credentials", "fs.s3a.access.key", "fs.s3a.secret.key",
        "fs.s3a.aws.credentials.provider");
    assertEquals(0, o.asked().total(), "nothing unsigned was sent: " + line);
  }

  @Test
  void aBucketThatIsNotThereNamesTheBucketAndTheEndpoint() {
    Outcome o = measured(() -> run("s3a://pgbloat-no-such-bucket/pgdata", settings()));
    assertOneLine(o, 2, "no bucket 'pgbloat-no-such-bucket'", "fs.s3a.endpoint " + s3.endpoint());
  }

  /** A prefix nothing is stored under, and one that holds objects but no data directory: a local path's wording. */
  @Test
  void aPrefixWithoutADataDirectoryIsNotADataDirectory() {
    String nothing = "s3a://" + BUCKET + "/no-such-prefix";
    assertOneLine(measured(() -> run(nothing, settings())), 2, "Cannot read data directory " + nothing
        + ": it does not exist or is not a directory");
    String base = DATA_DIR + "/base";
    assertOneLine(measured(() -> run(base, settings())), 2, "Cannot read data directory " + base
        + ": it has no PG_VERSION file");
  }

  /** A key in the URI: S3A refuses it, and the line shows the key's id but not its secret. */
  @Test
  void aSecretInThePathIsNeverShown() {
    String withSecret = "s3a://AKIAEXAMPLE:" + WRONG_SECRET + "@" + BUCKET + "/pgdata";
    String line = assertOneLine(measured(() -> run(withSecret, settings())), 2, "Cannot open data directory s3a://"
        + "AKIAEXAMPLE:<redacted>@" + BUCKET + "/pgdata");
    assertFalse(line.contains(WRONG_SECRET), line);
  }

  @Test
  void anEndpointNobodyListensOnFailsWithinSeconds() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    String endpoint = "http://" + InetAddress.getLoopbackAddress().getHostAddress() + ":" + closedPort;
    Outcome o = measured(() -> run(DATA_DIR, settingsWith("fs.s3a.endpoint", endpoint)));
    assertOneLine(o, 1, "cannot reach the store at fs.s3a.endpoint " + endpoint, "Connection refused");
    assertTrue(o.run().elapsed().compareTo(Duration.ofSeconds(30)) < 0, o.run().describe());
  }

  /** The first requests throttled, and then some: S3A's retries get the same report. */
  @Test
  void throttlingThatRetriesOutlastChangesNothing() {
    long answered = s3.answered();
    s3.answer(FaultPlan.first(3, S3ErrorReply.SLOW_DOWN));
    Outcome o = measured(() -> run(DATA_DIR, settings()));
    assertAll(
        () -> assertEquals(0, o.run().status(), o.run().describe()),
        () -> assertEquals(clean.out(), o.run().out()),
        () -> assertEquals("", o.run().err()),
        () -> assertEquals(3, s3.answered() - answered, "throttled"));
  }

  /** A store that throttles every request, from the first on or from a task's: one line, in bounded time. */
  @Test
  void aStoreThatKeepsThrottlingFailsInOneLine() {
    s3.answer(FaultPlan.every(1, S3ErrorReply.SLOW_DOWN));
    Outcome first = measured(() -> run(DATA_DIR, settings()));
    assertOneLine(first, 1, "Cannot read " + DATA_DIR + ": ", "kept throttling", "503 SlowDown",
        "fs.s3a.retry.throttle.limit");
    assertTrue(first.asked().total() >= 5, "retried: " + first.asked());
    assertTrue(first.run().elapsed().compareTo(BOUNDED) < 0, first.run().describe());
    s3.answer(FaultPlan.after(midRun(), S3ErrorReply.SLOW_DOWN));
    Outcome late = measured(() -> run(DATA_DIR, settings()));
    assertOneLine(late, 1, "Cannot read " + DATA_DIR + "/base/", "kept throttling", "fs.s3a.retry.throttle.limit");
    assertTrue(late.run().elapsed().compareTo(BOUNDED.plus(clean.elapsed())) < 0, late.run().describe());
  }

  /**
   * Credentials that stop working mid-run, once the tasks read: S3's 400 ExpiredToken (whose
   * HEAD has no code to tell, only the status), or a 403 as some stores send. One line that
   * names the credentials and the object, no report (not one claimed complete), no bad pages.
   */
  @ParameterizedTest
  @ValueSource(ints = {400, 403})
  void credentialsThatExpireMidRunEndItInOneLine(int status) {
    s3.answer(FaultPlan.after(midRun(), status == 400 ? S3ErrorReply.EXPIRED_TOKEN
        : S3ErrorReply.EXPIRED_TOKEN_FORBIDDEN));
    Outcome o = measured(() -> run(DATA_DIR, settings()));
    String line = assertOneLine(o, 1, "Cannot read " + DATA_DIR + "/base/", "fs.s3a.access.key",
        "fs.s3a.secret.key", "(" + status);
    assertTrue(status == 403 || line.contains("fs.s3a.session.token"), line);
    assertFalse(o.run().err().contains("bad data"), line);
    assertTrue(o.asked().total() < cleanRequests + 50, "the run ended at the first refusal: " + o.asked());
  }

  /** A number of requests past the plan's and short of the run's: the tasks' reads are under way. */
  private static long midRun() {
    return (planRequests + cleanRequests) / 2;
  }
}
