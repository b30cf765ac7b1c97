package io.pgbloat.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HttpRequestScannerTest {
  /** Four requests on one kept-alive connection: bodies of both kinds hold text that looks like a request. */
  private static final String STREAM = ""
      + "GET /bucket/a HTTP/1.1\r\nHost: x\r\n\r\n"
      + "PUT /bucket/b HTTP/1.1\r\nContent-Length: 26\r\n\r\n"
      + "GET /bucket/c HTTP/1.1\r\n\r\n"
      + "PUT /bucket/d HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
      + "1a;ext=1\r\nHEAD /bucket/ HTTP/1.1\r\n\r\n\r\n"
      + "0\r\nX-Trailer: t\r\n\r\n"
      + "GET /bucket?list-type=2&prefix=p%2F HTTP/1.1\r\n\r\n";

  private static final List<String> REQUESTS = List.of("GET /bucket/a", "PUT /bucket/b", "PUT /bucket/d",
      "GET /bucket?list-type=2&prefix=p%2F");

  @Test
  void findsEachRequestHowEverTheBytesAreSplit() {
    byte[] bytes = STREAM.getBytes(StandardCharsets.ISO_8859_1);
    for (int split = 0; split <= bytes.length; split++) {
      List<String> found = new ArrayList<>();
      HttpRequestScanner scanner = new HttpRequestScanner((method, target) -> found.add(method + " " + target));
      scanner.accept(bytes, 0, split);
      scanner.accept(bytes, split, bytes.length - split);
      assertEquals(REQUESTS, found, "split at " + split);
    }
    List<String> found = new ArrayList<>();
    HttpRequestScanner scanner = new HttpRequestScanner((method, target) -> found.add(method + " " + target));
    for (int i = 0; i < bytes.length; i++) {
      scanner.accept(bytes, i, 1);
    }
    assertEquals(REQUESTS, found, "a byte at a time");
  }

  /**
   * A caller holding requests back is stopped right after each head, and told while one is begun
   * and whether a body follows.
   */
  @Test
  void stopsRightAfterEachHead() {
    byte[] bytes = STREAM.getBytes(StandardCharsets.ISO_8859_1);
    List<Integer> stops = new ArrayList<>();
    List<Boolean> bodiless = new ArrayList<>();
    int[] reported = {0};
    HttpRequestScanner scanner = new HttpRequestScanner((method, target) -> reported[0]++);
    assertEquals(4, scanner.acceptThroughHead(bytes, 0, 4));
    assertTrue(scanner.inHead());
    for (int at = 4; at < bytes.length; ) {
      int before = reported[0];
      at += scanner.acceptThroughHead(bytes, at, bytes.length - at);
      if (reported[0] > before) {
        stops.add(at);
        bodiless.add(scanner.betweenRequests());
        assertFalse(scanner.inHead());
      }
    }
    assertEquals(List.of(STREAM.indexOf("PUT /bucket/b"), STREAM.indexOf("GET /bucket/c"), STREAM.indexOf("1a;ext"),
        STREAM.length()), stops);
    assertEquals(List.of(true, false, false, true), bodiless, "whether a body follows each head");
  }

  @Test
  void reportsNothingOfBytesThatAreNotHttp() {
    List<String> found = new ArrayList<>();
    HttpRequestScanner scanner = new HttpRequestScanner((method, target) -> found.add(method + " " + target));
    byte[] tlsHello = {0x16, 0x03, 0x01, 0x02, 0x00, '\n', 'G', 'E', 'T', ' ', '/', ' ', 'H', 'T', 'T', 'P', '/',
        '1', '.', '1', '\r', '\n', '\r', '\n'};
    scanner.accept(tlsHello, 0, tlsHello.length);
    assertEquals(List.of(), found);
  }

  @Test
  void toldKindsOfS3Requests() {
    assertEquals(RequestKind.LIST, RequestKind.of("GET", "/bucket?list-type=2&prefix=pgdata%2F&delimiter=%2F"));
    assertEquals(RequestKind.LIST, RequestKind.of("GET", "/bucket/"));
    assertEquals(RequestKind.LIST, RequestKind.of("GET", "/bucket?prefix=a"));
    assertEquals(RequestKind.GET, RequestKind.of("GET", "/bucket/pgdata/base/5/1259"));
    assertEquals(RequestKind.GET, RequestKind.of("GET", "/bucket?location"));
    assertEquals(RequestKind.HEAD, RequestKind.of("HEAD", "/bucket/pgdata/PG_VERSION"));
    assertEquals(RequestKind.PUT, RequestKind.of("PUT", "/bucket/x"));
    assertEquals(RequestKind.POST, RequestKind.of("POST", "/bucket?delete"));
  }
}
