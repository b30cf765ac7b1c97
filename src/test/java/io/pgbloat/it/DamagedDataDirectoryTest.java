package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.cli.Main;
import io.pgbloat.testing.Csv;
import io.pgbloat.testing.SampleData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A copy of the sample with a garbage page in one table and a truncated file in another: the
 * bad page is counted and reported, the run exits 1, and every other relation stays exact.
 */
class DamagedDataDirectoryTest {
  @TempDir Path temp;

  @Test
  void badPageAndShortFileAreReportedAndTheRestStaysExact() throws IOException {
    Path dir = SampleData.copyTo(temp.resolve("pgdata"));
    Map<String, Map<String, String>> truth = SampleData.pgstattuple().stream()
        .collect(Collectors.toMap(Report::key, Function.identity()));
    Map<String, String> orders = truth.get("shop:public.orders");
    Map<String, String> events = truth.get("shop:public.events");

    try (RandomAccessFile f = new RandomAccessFile(dir.resolve(orders.get("relpath")).toFile(), "rw")) {
      f.seek(3 * 8192 + 2000);
      f.write("garbage written over a tuple".getBytes(StandardCharsets.US_ASCII));
    }
    try (RandomAccessFile f = new RandomAccessFile(dir.resolve(events.get("relpath")).toFile(), "rw")) {
      f.setLength(f.length() - 100);
    }

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(new String[] {"analyze", "--data-dir", dir.toString(), "--format", "csv",
        "--master", "local[2]"}, new PrintStream(out, true), new PrintStream(err, true));
    String stderr = err.toString(StandardCharsets.UTF_8);

    assertEquals(1, status, stderr);
    assertFalse(stderr.contains("\tat "), stderr);
    assertTrue(stderr.contains("bad data: shop:public.orders (" + orders.get("relpath")
        + ") block 3: checksum mismatch"), stderr);
    assertTrue(stderr.contains("bad data: shop:public.events: segment " + events.get("relpath")
        + " is " + (Long.parseLong(events.get("table_len")) - 100) + " bytes, not a multiple of 8192"), stderr);

    Map<String, Map<String, String>> report = Csv.parseWithHeader(out.toString(StandardCharsets.UTF_8)).stream()
        .collect(Collectors.toMap(Report::key, Function.identity()));
    Map<String, String> badOrders = report.get("shop:public.orders");
    assertEquals("1", badOrders.get("bad_pages"));
    assertEquals(orders.get("blocks"), badOrders.get("scanned_blocks"));
    assertTrue(Long.parseLong(badOrders.get("tuple_count")) < Long.parseLong(orders.get("tuple_count")));
    Map<String, String> shortEvents = report.get("shop:public.events");
    assertEquals(Long.parseLong(events.get("blocks")) - 1, Long.parseLong(shortEvents.get("blocks")));

    Set<String> damaged = Set.of("shop:public.orders", "shop:public.events");
    List<Map<String, String>> untouched = SampleData.pgstattuple().stream()
        .filter(r -> !damaged.contains(Report.key(r))).toList();
    String rest = Report.toCsv(report.values().stream().filter(r -> !damaged.contains(Report.key(r))).toList());
    List<String> differences = Report.differences(untouched, rest);
    assertTrue(differences.isEmpty(), () -> String.join("\n", differences));
  }

  /**
   * A page zeroed inside a table passes PostgreSQL's checks (an all-zero page is a new page,
   * checksum or not), so it is counted as empty, as pgstattuple would; the run says so in a
   * warning naming the relation and its file, and exits 0.
   */
  @Test
  void aZeroedPageIsCountedEmptyAndWarnedAbout() throws IOException {
    Path dir = SampleData.copyTo(temp.resolve("zeroed"));
    Map<String, String> orders = SampleData.pgstattuple().stream()
        .filter(r -> Report.key(r).equals("shop:public.orders")).findFirst().orElseThrow();
    try (RandomAccessFile f = new RandomAccessFile(dir.resolve(orders.get("relpath")).toFile(), "rw")) {
      f.seek(5 * 8192);
      f.write(new byte[8192]);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(new String[] {"analyze", "--data-dir", dir.toString(), "--table", "public.orders",
        "--full-scan", "--format", "csv", "--master", "local[1]"}, new PrintStream(out, true), new PrintStream(err, true));
    String stderr = err.toString(StandardCharsets.UTF_8);
    assertEquals(0, status, stderr);
    assertTrue(stderr.contains("warning: shop:public.orders (" + orders.get("relpath") + "): 1 all-zero page(s) among the "
        + orders.get("blocks") + " read"), stderr);
    Map<String, String> row = Csv.parseWithHeader(out.toString(StandardCharsets.UTF_8)).get(0);
    assertEquals("0", row.get("bad_pages"));
    assertTrue(Long.parseLong(row.get("tuple_count")) < Long.parseLong(orders.get("tuple_count")));
  }

  /**
   * One database's pg_class damaged: that database is named as a finding (its tables cannot
   * be listed), and every relation of the other databases is still exact.
   */
  @Test
  void aDatabaseWithADamagedCatalogIsReportedAndTheOthersStayExact() throws IOException {
    Path dir = SampleData.copyTo(temp.resolve("catalog"));
    Map<String, String> pgClass = SampleData.pgstattuple().stream()
        .filter(r -> r.get("database").equals("postgres") && r.get("relname").equals("pg_class")).findFirst().orElseThrow();
    try (RandomAccessFile f = new RandomAccessFile(dir.resolve(pgClass.get("relpath")).toFile(), "rw")) {
      f.seek(3000);
      f.write("garbage in the catalog".getBytes(StandardCharsets.US_ASCII));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(new String[] {"analyze", "--data-dir", dir.toString(), "--full-scan", "--format", "csv",
        "--master", "local[2]"}, new PrintStream(out, true), new PrintStream(err, true));
    String stderr = err.toString(StandardCharsets.UTF_8);
    assertEquals(1, status, stderr);
    assertFalse(stderr.contains("\tat "), stderr);
    assertTrue(stderr.contains("bad data: database postgres: Cannot read catalog pg_class of database postgres"), stderr);
    List<Map<String, String>> report = Csv.parseWithHeader(out.toString(StandardCharsets.UTF_8));
    assertTrue(report.stream().noneMatch(r -> r.get("database").equals("postgres")));
    List<Map<String, String>> others = SampleData.pgstattuple().stream()
        .filter(r -> !r.get("database").equals("postgres")).toList();
    List<String> differences = Report.differences(others, Report.toCsv(report));
    assertTrue(differences.isEmpty(), () -> String.join("\n", differences));
  }
}
