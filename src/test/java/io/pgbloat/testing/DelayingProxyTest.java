package io.pgbloat.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The proxy between java.net.http's client and the JDK's HTTP server. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DelayingProxyTest {
  private static final Duration DELAY = Duration.ofMillis(100);
  private static final byte[] OBJECT = new byte[3 << 20];

  private HttpServer server;
  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  void startServer() throws IOException {
    new Random(7).nextBytes(OBJECT);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      try (exchange; InputStream body = exchange.getRequestBody()) {
        body.readAllBytes();
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(200, head ? -1 : OBJECT.length);
        if (!head) {
          exchange.getResponseBody().write(OBJECT);
        }
      }
    });
    server.start();
  }

  @AfterAll
  void stopServer() {
    server.stop(0);
  }

  private HttpResponse<byte[]> send(DelayingProxy proxy, String method, String target,
      HttpRequest.BodyPublisher body) throws IOException, InterruptedException {
    URI uri = proxy.endpoint("http").resolve(target);
    return client.send(HttpRequest.newBuilder(uri).method(method, body).build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  @Test
  void holdsBackEachResponseAndPassesItOnWhole() throws Exception {
    int requests = 5;
    try (DelayingProxy proxy = DelayingProxy.start(server.getAddress(), DELAY)) {
      long start = System.nanoTime();
      for (int i = 0; i < requests; i++) {
        HttpResponse<byte[]> response = send(proxy, "GET", "/bucket/object", HttpRequest.BodyPublishers.noBody());
        assertEquals(200, response.statusCode());
        assertArrayEquals(OBJECT, response.body());
      }
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertTrue(took.compareTo(DELAY.multipliedBy(requests)) >= 0, requests + " requests took " + took);
      assertEquals(requests, proxy.requests().gets());
    }
  }

  @Test
  void countsEachKindOfRequest() throws Exception {
    try (DelayingProxy proxy = DelayingProxy.start(server.getAddress(), Duration.ZERO)) {
      send(proxy, "GET", "/bucket/a", HttpRequest.BodyPublishers.noBody());
      send(proxy, "HEAD", "/bucket/a", HttpRequest.BodyPublishers.noBody());
      send(proxy, "GET", "/bucket?list-type=2&prefix=a%2F&delimiter=%2F", HttpRequest.BodyPublishers.noBody());
      RequestCounts before = proxy.requests();
      send(proxy, "PUT", "/bucket/b", HttpRequest.BodyPublishers.ofByteArray(OBJECT));
      // no length given: sent chunked, so the scanner must walk the chunks to find the next request
      send(proxy, "PUT", "/bucket/c", HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(OBJECT)));
      send(proxy, "GET", "/bucket/b", HttpRequest.BodyPublishers.noBody());
      send(proxy, "GET", "/bucket/", HttpRequest.BodyPublishers.noBody());
      assertEquals(new RequestCounts(Map.of(RequestKind.GET, 1L, RequestKind.HEAD, 1L, RequestKind.LIST, 1L)), before);
      assertEquals(new RequestCounts(Map.of(RequestKind.GET, 1L, RequestKind.PUT, 2L, RequestKind.LIST, 1L)),
          proxy.requests().since(before));
      assertEquals(7, proxy.requests().total());
    }
  }

  /** Answered requests get S3's error document and never reach the server; the others pass whole. */
  @Test
  void answersThePlannedRequestsInTheServersStead() throws Exception {
    AtomicInteger served = new AtomicInteger();
    server.createContext("/counted", exchange -> {
      served.incrementAndGet();
      try (exchange; InputStream body = exchange.getRequestBody()) {
        body.readAllBytes();
        exchange.sendResponseHeaders(200, OBJECT.length);
        exchange.getResponseBody().write(OBJECT);
      }
    });
    try (DelayingProxy proxy = DelayingProxy.start(server.getAddress(), Duration.ZERO)) {
      proxy.answer(FaultPlan.every(2, S3ErrorReply.SLOW_DOWN));
      for (int i = 1; i <= 4; i++) {
        HttpResponse<byte[]> response = send(proxy, "GET", "/counted/object", HttpRequest.BodyPublishers.noBody());
        if (i % 2 == 0) {
          assertEquals(503, response.statusCode());
          String body = new String(response.body(), java.nio.charset.StandardCharsets.UTF_8);
          assertTrue(body.contains("<Code>SlowDown</Code>"), body);
        } else {
          assertEquals(200, response.statusCode());
          assertArrayEquals(OBJECT, response.body());
        }
      }
      // a request with a body, answered: the body goes nowhere, and the next request is served
      proxy.answer(FaultPlan.first(1, S3ErrorReply.EXPIRED_TOKEN));
      assertEquals(400, send(proxy, "PUT", "/counted/b", HttpRequest.BodyPublishers.ofByteArray(OBJECT)).statusCode());
      assertEquals(200, send(proxy, "GET", "/counted/object", HttpRequest.BodyPublishers.noBody()).statusCode());
      assertEquals(3, served.get());
      assertEquals(3, proxy.answered());
      assertEquals(new RequestCounts(Map.of(RequestKind.GET, 5L, RequestKind.PUT, 1L)), proxy.requests());
    } finally {
      server.removeContext("/counted");
    }
  }
}
