package io.pgbloat.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on a free loopback port that stands in for a network's latency (this machine's
 * kernel has no netem): it holds back each response, the first bytes the server sends after the
 * client sent something, for a fixed delay, then passes the rest of it on at once. Over plain
 * HTTP it also counts the client's requests by {@link RequestKind} ({@link HttpRequestScanner}),
 * and can answer some of them itself with an S3 error ({@link #answer(FaultPlan)}): each request's
 * head is held until it is whole, then passed on or answered in the server's stead once its body
 * (read and dropped) has ended, the connection then closed. Over TLS it only delays. A thread per direction of each connection.
 */
public final class DelayingProxy implements AutoCloseable {
  private static final int BUFFER_BYTES = 64 * 1024;

  private final InetSocketAddress server;
  private final Duration delay;
  private final ServerSocket listener;
  private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "delaying-proxy");
    thread.setDaemon(true);
    return thread;
  });
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final Map<RequestKind, AtomicLong> counts = new EnumMap<>(RequestKind.class);
  /** Which requests are answered here; requests are numbered from when it was set. */
  private volatile FaultPlan faults = FaultPlan.NONE;
  private final AtomicLong sinceFaultsSet = new AtomicLong();
  private final AtomicLong answered = new AtomicLong();

  private DelayingProxy(InetSocketAddress server, Duration delay) throws IOException {
    this.server = server;
    this.delay = delay;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    for (RequestKind kind : RequestKind.values()) {
      counts.put(kind, new AtomicLong());
    }
  }

  /** Starts a proxy to {@code server} that delays each response by {@code delay} (zero: only counts). */
  public static DelayingProxy start(InetSocketAddress server, Duration delay) {
    try {
      DelayingProxy proxy = new DelayingProxy(server, delay);
      proxy.threads.execute(proxy::acceptConnections);
      return proxy;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on a loopback port", e);
    }
  }

  public int port() {
    return listener.getLocalPort();
  }

  /** {@code scheme://127.0.0.1:port}: where a client connects to reach the server through this proxy. */
  public URI endpoint(String scheme) {
    return URI.create(scheme + "://" + listener.getInetAddress().getHostAddress() + ":" + port());
  }

  /**
   * From now on, answers the requests {@code plan} picks (numbered from 1 from now) with its S3
   * error instead of passing them on; {@link FaultPlan#NONE} passes every one again. Requests so
   * answered are counted in {@link #requests()} as any other.
   */
  public void answer(FaultPlan plan) {
    sinceFaultsSet.set(0);
    faults = plan;
  }

  /** How many requests were answered here, by a {@link FaultPlan}, so far. */
  public long answered() {
    return answered.get();
  }

  /** The requests counted so far (none over TLS). */
  public RequestCounts requests() {
    Map<RequestKind, Long> snapshot = new EnumMap<>(RequestKind.class);
    counts.forEach((kind, count) -> snapshot.put(kind, count.get()));
    return new RequestCounts(snapshot);
  }

  private void acceptConnections() {
    while (!listener.isClosed()) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        if (listener.isClosed()) {
          return;
        }
        throw new UncheckedIOException("proxy to " + server + " stopped accepting", e);
      }
      try {
        connect(client);
      } catch (IOException e) {
        closeQuietly(client); // the server is not there: the client sees its connection closed
      }
    }
  }

  private void connect(Socket client) throws IOException {
    Connection connection = new Connection(client, new Socket(server.getAddress(), server.getPort()));
    open.add(connection.client);
    open.add(connection.upstream);
    HttpRequestScanner scanner = new HttpRequestScanner((method, target) -> {
      counts.get(RequestKind.of(method, target)).incrementAndGet();
      connection.reply = faults.replyTo(sinceFaultsSet.incrementAndGet()).orElse(null);
      connection.replyToHead = method.equals("HEAD");
    });
    threads.execute(() -> connection.pumpRequests(scanner));
    threads.execute(connection::pumpResponses);
  }

  /** One client's connection and the one to the server made for it. */
  private final class Connection {
    private final Socket client;
    private final Socket upstream;
    private final AtomicBoolean awaitingResponse = new AtomicBoolean();
    /** Directions not yet at their end: both sockets are closed when none is left. */
    private final AtomicInteger directionsOpen = new AtomicInteger(2);
    /** How the request whose head was read last is to be answered here; null to pass it on. Its pump's alone. */
    private S3ErrorReply reply;
    /** Whether that request is a HEAD, whose answer has no content. */
    private boolean replyToHead;

    Connection(Socket client, Socket upstream) throws IOException {
      this.client = client;
      this.upstream = upstream;
      client.setTcpNoDelay(true);
      upstream.setTcpNoDelay(true);
    }

    /**
     * Copies the client's bytes to the server until the client ends, holding each request's head
     * until it is whole: then it is passed on, and a response awaited, or answered here.
     */
    void pumpRequests(HttpRequestScanner scanner) {
      byte[] buffer = new byte[BUFFER_BYTES];
      ByteArrayOutputStream held = new ByteArrayOutputStream();
      try {
        InputStream in = client.getInputStream();
        OutputStream out = upstream.getOutputStream();
        for (int n; (n = in.read(buffer)) >= 0; ) {
          for (int i = 0; i < n; ) {
            int taken = scanner.acceptThroughHead(buffer, i, n - i);
            if (reply != null) { // answered here: its head and body go nowhere, and the answer follows its end
              i += taken;
              held.reset();
              if (scanner.betweenRequests()) {
                answer(reply);
                return;
              }
              continue;
            }
            held.write(buffer, i, taken);
            i += taken;
            if (!scanner.inHead()) {
              awaitingResponse.set(true);
              held.writeTo(out);
              out.flush();
              held.reset();
            }
          }
        }
        upstream.shutdownOutput();
        directionEnded();
      } catch (IOException e) {
        closeBoth(); // one side reset or closed: end the pair
      }
    }

    /** Sends {@code error} to the client in the server's stead, and ends the connection. */
    private void answer(S3ErrorReply error) throws IOException {
      answered.incrementAndGet();
      synchronized (client) {
        OutputStream out = client.getOutputStream();
        out.write(error.bytes(replyToHead));
        out.flush();
      }
      closeBoth();
    }

    /**
     * Copies the server's bytes to the client until the server ends, sleeping before the first
     * bytes of each awaited response.
     */
    void pumpResponses() {
      byte[] buffer = new byte[BUFFER_BYTES];
      try {
        InputStream in = upstream.getInputStream();
        OutputStream out = client.getOutputStream();
        for (int n; (n = in.read(buffer)) >= 0; ) {
          if (awaitingResponse.getAndSet(false)) {
            Thread.sleep(delay.toMillis());
          }
          synchronized (client) {
            out.write(buffer, 0, n);
            out.flush();
          }
        }
        client.shutdownOutput();
        directionEnded();
      } catch (IOException e) {
        closeBoth(); // one side reset or closed: end the pair
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        closeBoth();
      }
    }

    /** Both sockets are closed once neither direction is left. */
    private void directionEnded() {
      if (directionsOpen.decrementAndGet() == 0) {
        closeBoth();
      }
    }

    private void closeBoth() {
      for (Socket socket : new Socket[] {client, upstream}) {
        open.remove(socket);
        closeQuietly(socket);
      }
    }
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing a broken connection: nothing left to tell
    }
  }

  @Override
  public void close() {
    try {
      listener.close();
    } catch (IOException ignored) {
      // the port is freed either way
    }
    open.forEach(DelayingProxy::closeQuietly);
    threads.shutdownNow();
  }
}
