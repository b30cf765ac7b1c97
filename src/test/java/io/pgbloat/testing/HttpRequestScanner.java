package io.pgbloat.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.BiConsumer;

/**
 * Finds the request lines in the bytes a client sends over one HTTP/1.1 connection, however they
 * are split into reads: it reads each request's head, then skips its body (RFC 9112 section 6:
 * {@code Content-Length} bytes, or {@code chunked} chunks up to the empty last one and its
 * trailer), so the next head is found on a kept-alive connection. Bytes that do not start like a
 * request (TLS) stop it for good: it then reports nothing.
 */
final class HttpRequestScanner {
  /** A head longer than this is not one we can read: S3 clients' heads are a few kilobytes. */
  private static final int MAX_HEAD_BYTES = 64 * 1024;
  private static final byte CR = '\r';
  private static final byte LF = '\n';

  private enum State { HEAD, BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, TRAILER, NOT_HTTP }

  private final BiConsumer<String, String> onRequest;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private final StringBuilder head = new StringBuilder();
  private State state = State.HEAD;
  private long remaining;
  /** Whether the bytes just taken ended a request's head ({@link #acceptThroughHead} stops there). */
  private boolean headEnded;

  /** {@code onRequest} is given each request's method and target (path and query). */
  HttpRequestScanner(BiConsumer<String, String> onRequest) {
    this.onRequest = onRequest;
  }

  /** Takes the next {@code length} bytes the client sent. */
  void accept(byte[] bytes, int offset, int length) {
    for (int taken = 0; taken < length; ) {
      taken += acceptThroughHead(bytes, offset + taken, length - taken);
    }
  }

  /**
   * Takes the next bytes the client sent, up to and with the end of a request's head if one ends
   * within {@code length} (its request then reported): how many it took. A caller that holds a
   * request back until its head is whole (to answer it in the server's stead) stops there.
   */
  int acceptThroughHead(byte[] bytes, int offset, int length) {
    int i = offset;
    int end = offset + length;
    if (state == State.NOT_HTTP) {
      return length;
    }
    headEnded = false;
    while (i < end && state != State.NOT_HTTP && !headEnded) {
      if (state == State.BODY || state == State.CHUNK_DATA) {
        int skipped = (int) Math.min(remaining, end - i);
        i += skipped;
        remaining -= skipped;
        if (remaining == 0) {
          state = state == State.BODY ? State.HEAD : State.CHUNK_END;
        }
      } else {
        byte b = bytes[i++];
        if (b == LF) {
          endOfLine(line.toString(StandardCharsets.ISO_8859_1));
          line.reset();
        } else if (b != CR) {
          line.write(b);
          if (line.size() + head.length() > MAX_HEAD_BYTES) {
            state = State.NOT_HTTP;
          }
        }
      }
    }
    return state == State.NOT_HTTP ? length : i - offset;
  }

  /** Whether a request's head has begun but not yet ended: its request line is not reported yet. */
  boolean inHead() {
    return state == State.HEAD && (line.size() > 0 || head.length() > 0);
  }

  /** Whether the last request has been taken whole, its body too, and the next not begun. */
  boolean betweenRequests() {
    return state == State.HEAD && !inHead();
  }

  private void endOfLine(String text) {
    switch (state) {
      case HEAD -> headLine(text);
      case CHUNK_SIZE -> {
        long size = Long.parseLong(text.split(";", 2)[0].trim(), 16);
        if (size == 0) {
          state = State.TRAILER;
        } else {
          remaining = size;
          state = State.CHUNK_DATA;
        }
      }
      case CHUNK_END -> state = State.CHUNK_SIZE;
      case TRAILER -> state = text.isEmpty() ? State.HEAD : State.TRAILER;
      default -> throw new IllegalStateException("no line is read in state " + state);
    }
  }

  private void headLine(String text) {
    if (head.length() == 0) {
      if (text.isEmpty()) {
        return; // RFC 9112 section 2.2: empty lines before a request line are ignored
      }
      if (!text.matches("[A-Z]+ \\S+ HTTP/1\\.[01]")) {
        state = State.NOT_HTTP;
        return;
      }
    }
    if (!text.isEmpty()) {
      head.append(text).append('\n');
      return;
    }
    String[] lines = head.toString().split("\n");
    head.setLength(0);
    headEnded = true;
    String[] requestLine = lines[0].split(" ");
    onRequest.accept(requestLine[0], requestLine[1]);
    long contentLength = 0;
    boolean chunked = false;
    for (int n = 1; n < lines.length; n++) {
      int colon = lines[n].indexOf(':');
      String name = colon < 0 ? lines[n] : lines[n].substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = colon < 0 ? "" : lines[n].substring(colon + 1).trim();
      if (name.equals("content-length")) {
        contentLength = Long.parseLong(value);
      } else if (name.equals("transfer-encoding") && value.toLowerCase(Locale.ROOT).endsWith("chunked")) {
        chunked = true;
      }
    }
    if (chunked) {
      state = State.CHUNK_SIZE;
    } else if (contentLength > 0) {
      remaining = contentLength;
      state = State.BODY;
    }
  }
}
