package io.pgbloat.io.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.testing.RequestCounts;
import io.pgbloat.testing.RequestKind;
import io.pgbloat.testing.S3Server;
import io.pgbloat.testing.SampleData;
import java.io.EOFException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSupport;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HadoopFileStore} over {@code s3a://}: the shipped sample data directory put into a bucket
 * of a real S3 server ({@link S3Server}) and read through Hadoop's S3A connector reads as the
 * local files do, entry for entry and byte for byte.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3FileStoreTest {
  private static final String BUCKET = "sample";
  private static final String ROOT = "s3a://" + BUCKET + "/pgdata";

  private S3Server s3;
  private Configuration conf;

  @BeforeAll
  void startServer(@TempDir Path work) {
    s3 = S3Server.start(work);
    s3.createBucket(BUCKET);
    s3.upload(SampleData.dataDir(), BUCKET, "pgdata");
    conf = new Configuration();
    s3.hadoopSettings().forEach(conf::set);
    // FileSystem.get caches a file system per scheme and bucket, not per settings: this class's
    // server is on a port of its own, so its file system must be too
    conf.set("fs.s3a.impl.disable.cache", "true");
  }

  @AfterAll
  void stopServer() {
    if (s3 != null) {
      s3.close();
    }
  }

  /** Every directory of the sample, as a path relative to its root ("" the root itself). */
  private static List<String> directories() throws IOException {
    Path root = SampleData.dataDir();
    try (Stream<Path> paths = Files.walk(root)) {
      return paths.filter(Files::isDirectory).map(p -> root.relativize(p).toString()).sorted().toList();
    }
  }

  private static List<String> files() throws IOException {
    Path root = SampleData.dataDir();
    try (Stream<Path> paths = Files.walk(root)) {
      return paths.filter(Files::isRegularFile).map(p -> root.relativize(p).toString()).sorted().toList();
    }
  }

  @Test
  void listsEachDirectoryAsTheLocalOne() throws IOException {
    try (HadoopFileStore s3Store = HadoopFileStore.open(ROOT, conf);
        HadoopFileStore local = HadoopFileStore.open(SampleData.dataDir().toString(), new Configuration())) {
      for (String dir : directories()) {
        assertTrue(s3Store.isDirectory(dir), dir);
        assertEquals(sorted(local.list(dir)), sorted(s3Store.list(dir)), dir);
        assertEquals(-1, s3Store.length(dir), dir);
      }
      assertFalse(s3Store.isDirectory("PG_VERSION"));
      assertFalse(s3Store.isDirectory("no_such_dir"));
      assertEquals(List.of(), s3Store.list("no_such_dir"));
      assertEquals(-1, s3Store.length("base/no_such_file"));
    }
  }

  @Test
  void readsEachFileAsTheLocalOne() throws IOException {
    try (HadoopFileStore s3Store = HadoopFileStore.open(ROOT, conf)) {
      for (String file : files()) {
        byte[] expected = Files.readAllBytes(SampleData.dataDir().resolve(file));
        assertEquals(expected.length, s3Store.length(file), file);
        assertArrayEquals(expected, s3Store.readAll(file), file);
        if (expected.length > 8192) {
          byte[] page = new byte[8192];
          s3Store.readFully(file, expected.length - 8192, page, 0, page.length);
          assertArrayEquals(Arrays.copyOfRange(expected, expected.length - 8192, expected.length), page, file);
          assertThrows(EOFException.class,
              () -> s3Store.readFully(file, expected.length - 100, page, 0, page.length), file);
        }
        // an open S3A stream holds one of the connection pool's connections (fs.s3a.connection.maximum)
        s3Store.release(file);
      }
    }
  }

  /**
   * What a listing, a status and a read cost in requests, as the server counted them and as S3A's
   * own statistics name them (the counters a run can report): one LIST for a listing; one HEAD
   * for a file's status, a HEAD and a LIST for a directory's; a HEAD and a GET to open a file and
   * read from it.
   */
  @Test
  void eachCallCostsTheRequestsS3aCounts() throws IOException {
    String file = files().stream().filter(f -> f.startsWith("base/")).findFirst().orElseThrow();
    org.apache.hadoop.fs.Path filePath = new org.apache.hadoop.fs.Path(ROOT + "/" + file);
    org.apache.hadoop.fs.Path dirPath = filePath.getParent();
    try (FileSystem fs = FileSystem.get(URI.create(ROOT), conf)) {
      assertCost(fs, () -> fs.listStatus(dirPath), Map.of(RequestKind.LIST, 1L));
      assertCost(fs, () -> fs.getFileStatus(filePath), Map.of(RequestKind.HEAD, 1L));
      assertCost(fs, () -> fs.getFileStatus(dirPath), Map.of(RequestKind.HEAD, 1L, RequestKind.LIST, 1L));
      assertCost(fs, () -> {
        try (FSDataInputStream in = fs.open(filePath)) {
          in.readFully(0, new byte[8192]);
        }
      }, Map.of(RequestKind.HEAD, 1L, RequestKind.GET, 1L));
    }
  }

  /** A listing longer than a page ({@code fs.s3a.paging.maximum} keys) is a LIST a page: the first counted apart. */
  @Test
  void aLongListingIsAListAPage() throws IOException {
    int entries = SampleData.dataDir().resolve("base/5").toFile().list().length;
    int page = 100;
    Configuration paged = new Configuration(conf);
    paged.setInt("fs.s3a.paging.maximum", page);
    try (FileSystem fs = FileSystem.get(URI.create(ROOT), paged)) {
      assertCost(fs, () -> assertEquals(entries, fs.listStatus(new org.apache.hadoop.fs.Path(ROOT + "/base/5")).length),
          Map.of(RequestKind.LIST, (long) (entries + page - 1) / page));
    }
  }

  /** S3A's counters of each kind of request: they add up to the requests of that kind. */
  private static final Map<RequestKind, List<String>> S3A_COUNTERS = Map.of(
      RequestKind.LIST, List.of(StoreStatisticNames.OBJECT_LIST_REQUEST, StoreStatisticNames.OBJECT_CONTINUE_LIST_REQUEST),
      RequestKind.HEAD, List.of(StoreStatisticNames.ACTION_HTTP_HEAD_REQUEST),
      RequestKind.GET, List.of(StoreStatisticNames.ACTION_HTTP_GET_REQUEST));

  private interface Call {
    void run() throws IOException;
  }

  private void assertCost(FileSystem fs, Call call, Map<RequestKind, Long> expected) throws IOException {
    RequestCounts before = s3.requests();
    Map<String, Long> countersBefore = counters(fs);
    call.run();
    RequestCounts made = s3.requests().since(before);
    Map<String, Long> counters = counters(fs);
    assertEquals(new RequestCounts(expected), made);
    for (Map.Entry<RequestKind, List<String>> kind : S3A_COUNTERS.entrySet()) {
      long counted = 0;
      for (String name : kind.getValue()) {
        counted += counters.getOrDefault(name, 0L) - countersBefore.getOrDefault(name, 0L);
      }
      assertEquals(made.of(kind.getKey()), counted, String.join(" + ", kind.getValue()));
    }
  }

  private static Map<String, Long> counters(FileSystem fs) {
    IOStatistics stats = IOStatisticsSupport.retrieveIOStatistics(fs);
    return new TreeMap<>(stats.counters());
  }

  private static List<String> sorted(List<String> names) {
    List<String> copy = new ArrayList<>(names);
    copy.sort(null);
    return copy;
  }
}
