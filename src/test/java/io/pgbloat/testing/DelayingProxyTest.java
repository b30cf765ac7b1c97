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
}
