package io.pgbloat.testing;

import java.nio.charset.StandardCharsets;

/**
 * An S3 error response as the service sends it: a status line, and S3's XML error document
 * ({@code <Error><Code>...</Code><Message>...</Message></Error>}) with its length, and
 * {@code Connection: close}: the proxy that sends it in the server's stead ends the connection
 * after it, so that nothing of that connection is left for the server to answer.
 *
 * @param status the HTTP status
 * @param reason the status line's reason phrase
 * @param code S3's error code, as a client's retry and translation read it
 * @param message the error's text
 */
public record S3ErrorReply(int status, String reason, String code, String message) {
  /** S3's answer to a request rate it will not take: SDKs and S3A retry it with a backoff. */
  public static final S3ErrorReply SLOW_DOWN = new S3ErrorReply(503, "Slow Down", "SlowDown",
      "Please reduce your request rate.");
  /** S3's answer to a request signed with a session token past its expiry (a 400, as S3 documents it). */
  public static final S3ErrorReply EXPIRED_TOKEN = new S3ErrorReply(400, "Bad Request", "ExpiredToken",
      "The provided token has expired.");
  /** The same refusal as some S3-compatible stores send it: a 403. */
  public static final S3ErrorReply EXPIRED_TOKEN_FORBIDDEN = new S3ErrorReply(403, "Forbidden", "ExpiredToken",
      "The provided token has expired.");

  /**
   * The response's bytes; to a HEAD request without the document (RFC 9110 section 9.3.2: no
   * content), as S3 answers one, so that a client learns the status alone.
   */
  public byte[] bytes(boolean toHead) {
    byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + code + "</Code><Message>" + message
        + "</Message><RequestId>pgbloat-test</RequestId></Error>").getBytes(StandardCharsets.UTF_8);
    String head = "HTTP/1.1 " + status + " " + reason + "\r\n"
        + "Content-Type: application/xml\r\n"
        + "Content-Length: " + body.length + "\r\n"
        + "x-amz-request-id: pgbloat-test\r\n"
        + "Connection: close\r\n\r\n";
    byte[] headBytes = head.getBytes(StandardCharsets.ISO_8859_1);
    if (toHead) {
      return headBytes;
    }
    byte[] all = new byte[headBytes.length + body.length];
    System.arraycopy(headBytes, 0, all, 0, headBytes.length);
    System.arraycopy(body, 0, all, headBytes.length, body.length);
    return all;
  }
}
